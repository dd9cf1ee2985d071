/// Extended XMP: a packet too long for one segment, cut into APP1 chunks that each carry the
/// GUID of the whole, its full length and their offset in it. Its chunks are kept only when,
/// put back together, the packet holds no place at all; otherwise they all go.
enum ExtendedXMP {
    /// Where the payloads of the chunks to keep start.
    static func placeless(_ jpeg: [UInt8], _ segments: [JPEGLayout.Segment]) throws(JPEGLocationError) -> Set<Int> {
        let header = JPEGLocation.extendedXMPHeader
        var chunks: [[UInt8]: [(offset: Int, start: Int, data: Range<Int>, total: Int)]] = [:]
        for segment in segments where segment.marker == 0xE1 {
            let payload = Array(jpeg[segment.payload])
            guard payload.hasBytes(header) else { continue }
            let at = header.count
            guard payload.count >= at + 40 else { continue }  // too short to be one: dropped
            let reader = ByteReader(bytes: payload, bigEndian: true)
            let guid = Array(payload[at..<(at + 32)])
            chunks[guid, default: []].append((try reader.u32(at + 36), segment.payload.lowerBound,
                                              (segment.payload.lowerBound + at + 40)..<segment.payload.upperBound, try reader.u32(at + 32)))
        }
        var kept: Set<Int> = []
        for (_, parts) in chunks {
            let ordered = parts.sorted { $0.offset < $1.offset }
            var whole: [UInt8] = []
            var consistent = true
            for part in ordered {
                guard part.offset == whole.count, part.total == ordered[0].total else { consistent = false; break }
                whole += jpeg[part.data]
            }
            guard consistent, whole.count == ordered[0].total,
                  let edited = XMPLocation.removed(whole[...]), edited == whole else { continue }
            for part in ordered { kept.insert(part.start) }
        }
        return kept
    }
}
