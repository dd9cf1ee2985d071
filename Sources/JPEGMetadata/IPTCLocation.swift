/// Where a photo was taken, taken out of a Photoshop APP13 block: its IPTC record (resource
/// 0x0404) loses the location datasets of record 2 (content location code and name, city,
/// sublocation, province or state, country code, country name); the IPTC digest (0x0425) goes
/// when the record changed, as it no longer matches; and the Exif and XMP copies a Photoshop
/// block may hold (0x0422, 0x0423, 0x0424) go whole. Every other resource is copied as it is.
enum IPTCLocation {
    static let header = Array("Photoshop 3.0\u{0}".utf8)
    static let locationDatasets: Set<Int> = [26, 27, 90, 92, 95, 100, 101]
    private static let dropped: Set<Int> = [0x0422, 0x0423, 0x0424]
    private static let digest = 0x0425

    /// The block's payload after `header`, rewritten.
    static func removed(_ block: [UInt8]) throws(JPEGLocationError) -> [UInt8] {
        let reader = ByteReader(bytes: block, bigEndian: true)
        var kept: [(id: Int, bytes: ArraySlice<UInt8>)] = []
        var recordChanged = false
        var at = 0
        while at < block.count {
            if block[at...].allSatisfy({ $0 == 0 }) { kept.append((-1, block[at...])); break }  // padding
            guard block.hasBytes(Array("8BIM".utf8), at: at) else { throw JPEGLocationError("a Photoshop resource at byte \(at) is not one") }
            let id = try reader.u16(at + 4)
            let nameLength = try reader.u8(at + 6)
            let nameField = (1 + nameLength + 1) & ~1
            let sizeAt = at + 6 + nameField
            let size = try reader.u32(sizeAt)
            let data = sizeAt + 4
            guard reader.contains(data, length: size) else { throw JPEGLocationError("a Photoshop resource runs past the end of its block") }
            let next = min(block.count, data + size + (size & 1))
            if id == 0x0404 {
                let record = try datasetsWithoutLocation(Array(block[data..<(data + size)]))
                recordChanged = recordChanged || record.count != size
                var resource = Array(block[at..<sizeAt])
                resource += [UInt8(record.count >> 24 & 0xFF), UInt8(record.count >> 16 & 0xFF), UInt8(record.count >> 8 & 0xFF), UInt8(record.count & 0xFF)]
                resource += record
                if record.count & 1 == 1 { resource.append(0) }
                kept.append((id, resource[...]))
            } else if !dropped.contains(id) {
                kept.append((id, block[at..<next]))
            }
            at = next
        }
        return kept.filter { !(recordChanged && $0.id == digest) }.flatMap { $0.bytes }
    }

    /// An IPTC record's datasets (`0x1C`, record, dataset, length, data) less the location ones.
    static func datasetsWithoutLocation(_ record: [UInt8]) throws(JPEGLocationError) -> [UInt8] {
        let reader = ByteReader(bytes: record, bigEndian: true)
        var out: [UInt8] = []
        var at = 0
        while at < record.count {
            if record[at...].allSatisfy({ $0 == 0 }) { out += record[at...]; break }
            guard record[at] == 0x1C else { throw JPEGLocationError("an IPTC dataset at byte \(at) is not one") }
            let number = try reader.u8(at + 1), dataset = try reader.u8(at + 2)
            var length = try reader.u16(at + 3)
            var data = at + 5
            if length & 0x8000 != 0 {
                // An extended dataset: the low bits say how many bytes its length takes.
                let bytes = length & 0x7FFF
                guard bytes >= 1, bytes <= 4 else { throw JPEGLocationError("an IPTC dataset's length cannot be read") }
                length = 0
                for i in 0..<bytes { length = length << 8 | (try reader.u8(data + i)) }
                data += bytes
            }
            guard reader.contains(data, length: length) else { throw JPEGLocationError("an IPTC dataset runs past the end of its record") }
            if !(number == 2 && locationDatasets.contains(dataset)) { out += record[at..<(data + length)] }
            at = data + length
        }
        return out
    }

    /// Whether a rewritten record still holds a location dataset (the fuzzer's check).
    static func hasLocation(_ record: [UInt8]) -> Bool {
        guard let kept = try? datasetsWithoutLocation(record) else { return true }
        return kept != record
    }
}
