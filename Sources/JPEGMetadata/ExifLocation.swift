/// The GPS directory of an Exif block (a TIFF structure), taken out in place: the GPS pointer
/// (tag 0x8825) is removed from every directory that holds one, and the GPS directory with its
/// values is overwritten with zeros. Nothing moves, so every other offset in the block still
/// points where it did, and the camera, lens, date and orientation stay as they were.
enum ExifLocation {
    static let gpsPointer = 0x8825
    /// Directories walked at most: IFD0, the thumbnail's, Exif and interoperability, with room
    /// for a few more; a chain longer than this is refused.
    static let maxDirectories = 16
    private static let subDirectoryTags: Set<Int> = [0x8769, 0xA005]

    /// One directory: where it starts and its entries' tags and value fields.
    struct Directory {
        let offset: Int
        let entries: [(tag: Int, type: Int, count: Int, value: Int)]
        let index: Int
    }

    /// `tiff` with no GPS pointer in any directory and the GPS directories zeroed.
    static func removed(_ tiff: [UInt8]) throws(JPEGLocationError) -> [UInt8] {
        let reader = try reader(tiff)
        let directories = try walk(reader)
        var zeroed: [Range<Int>] = []
        for directory in directories {
            for entry in directory.entries where entry.tag == gpsPointer {
                zeroed += try gpsRanges(reader, at: entry.value)
            }
        }
        var out = tiff
        for directory in directories where directory.entries.contains(where: { $0.tag == gpsPointer }) {
            let kept = directory.entries.indices.filter { directory.entries[$0].tag != gpsPointer }
            let first = directory.offset + 2
            let old = (0..<directory.entries.count).map { Array(tiff[(first + $0 * 12)..<(first + $0 * 12 + 12)]) }
            let next = Array(tiff[(first + directory.entries.count * 12)..<(first + directory.entries.count * 12 + 4)])
            let rewritten = kept.flatMap { old[$0] } + next
            out.put16(kept.count, at: directory.offset, bigEndian: reader.bigEndian)
            out.replaceSubrange(first..<(first + rewritten.count), with: rewritten)
            for i in (first + rewritten.count)..<(first + directory.entries.count * 12 + 4) { out[i] = 0 }
        }
        for range in zeroed { for i in range { out[i] = 0 } }
        for directory in directories where directory.index == 1 {
            if let thumbnail = thumbnailRange(reader, directory) {
                out.replaceSubrange(thumbnail, with: Thumbnail.withoutMetadata(Array(out[thumbnail])))
            }
        }
        guard try !hasGPSPointer(out) else { throw JPEGLocationError("the Exif block's directories overlap so that its GPS pointer cannot be removed") }
        return out
    }

    /// Whether any directory of `tiff` still points at a GPS directory.
    static func hasGPSPointer(_ tiff: [UInt8]) throws(JPEGLocationError) -> Bool {
        try walk(reader(tiff)).contains { $0.entries.contains { $0.tag == gpsPointer } }
    }

    static func reader(_ tiff: [UInt8]) throws(JPEGLocationError) -> ByteReader {
        if tiff.hasBytes([0x49, 0x49, 0x2A, 0x00]) { return ByteReader(bytes: tiff, bigEndian: false) }
        if tiff.hasBytes([0x4D, 0x4D, 0x00, 0x2A]) { return ByteReader(bytes: tiff, bigEndian: true) }
        throw JPEGLocationError("the Exif block is not a TIFF structure")
    }

    /// IFD0 and the chain after it, and the Exif and interoperability directories they point to,
    /// each once: a directory seen again ends that path, so a loop is walked once.
    static func walk(_ reader: ByteReader) throws(JPEGLocationError) -> [Directory] {
        var found: [Directory] = []
        var seen: Set<Int> = []
        var pending: [(offset: Int, index: Int)] = [(try reader.u32(4), 0)]
        while let (offset, index) = pending.popLast() {
            guard offset != 0, !seen.contains(offset) else { continue }
            guard found.count < maxDirectories else { throw JPEGLocationError("the Exif block has too many directories") }
            seen.insert(offset)
            let count = try reader.u16(offset)
            guard reader.contains(offset + 2, length: count * 12 + 4) else {
                throw JPEGLocationError("an Exif directory at byte \(offset) runs past the end of its block")
            }
            var entries: [(tag: Int, type: Int, count: Int, value: Int)] = []
            for i in 0..<count {
                let at = offset + 2 + i * 12
                let type = try reader.u16(at + 2)
                // A SHORT sits in the first two bytes of the value field, whichever the byte order.
                let value = type == 3 ? try reader.u16(at + 8) : try reader.u32(at + 8)
                entries.append((try reader.u16(at), type, try reader.u32(at + 4), value))
            }
            found.append(Directory(offset: offset, entries: entries, index: index))
            if index >= 0 { pending.append((try reader.u32(offset + 2 + count * 12), index + 1)) }
            for entry in entries where subDirectoryTags.contains(entry.tag) { pending.append((entry.value, -1)) }
        }
        return found
    }

    /// The bytes of a GPS directory: its entries and every value stored outside them.
    static func gpsRanges(_ reader: ByteReader, at offset: Int) throws(JPEGLocationError) -> [Range<Int>] {
        let count = try reader.u16(offset)
        guard reader.contains(offset, length: 2 + count * 12 + 4) else {
            throw JPEGLocationError("the Exif block's GPS directory runs past the end of its block")
        }
        var ranges = [offset..<(offset + 2 + count * 12 + 4)]
        for i in 0..<count {
            let at = offset + 2 + i * 12
            let size = try valueSize(type: try reader.u16(at + 2), count: try reader.u32(at + 4))
            guard size > 4 else { continue }
            let value = try reader.u32(at + 8)
            guard reader.contains(value, length: size) else {
                throw JPEGLocationError("a GPS value lies outside the Exif block")
            }
            ranges.append(value..<(value + size))
        }
        return ranges
    }

    /// Bytes a TIFF value of `count` items of `type` takes.
    static func valueSize(type: Int, count: Int) throws(JPEGLocationError) -> Int {
        let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]
        guard let size = sizes[type] else { throw JPEGLocationError("a GPS value has unknown type \(type)") }
        return size * count
    }

    /// IFD1's embedded JPEG thumbnail (tags 0x0201 and 0x0202), when it lies inside the block
    /// (one said to lie outside it is not there to clean).
    static func thumbnailRange(_ reader: ByteReader, _ directory: Directory) -> Range<Int>? {
        guard let start = directory.entries.first(where: { $0.tag == 0x0201 })?.value,
              let length = directory.entries.first(where: { $0.tag == 0x0202 })?.value,
              reader.contains(start, length: length) else { return nil }
        return start..<(start + length)
    }
}
