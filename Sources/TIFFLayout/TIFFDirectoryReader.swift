/// Reads a TIFF's (or BigTIFF's) directories: the main chain of pages and each page's SubIFDs.
/// Every offset is checked against the file's length, every directory is read once (a chain
/// that loops is an error, not a hang), and counts are bounded by what a real pyramid needs.
public struct TIFFDirectoryReader {
    /// Pages in the main chain read at most.
    public static let maxPages = 64
    /// SubIFDs of one page read at most.
    public static let maxSubDirectories = 64
    /// Entries one directory may have.
    public static let maxEntries = 1024

    let bytes: TIFFBytes
    let byteOrder: TIFFByteOrder
    let big: Bool
    let first: Int

    /// Reads the header; throws `.notTIFF` when it is not one.
    public init(_ bytes: TIFFBytes) throws(TIFFLayoutError) {
        self.bytes = bytes
        guard let head = bytes.read(at: 0, length: 8) else { throw .notTIFF }
        switch (head[0], head[1]) {
        case (0x49, 0x49): byteOrder = .little
        case (0x4D, 0x4D): byteOrder = .big
        default: throw .notTIFF
        }
        switch byteOrder.unsigned(Array(head[2..<4])) {
        case 42:
            big = false
            first = byteOrder.unsigned(Array(head[4..<8]))
        case 43:
            // BigTIFF: offset size 8, a zero, then the first directory's 8-byte offset.
            guard byteOrder.unsigned(Array(head[4..<6])) == 8, let offset = bytes.read(at: 8, length: 8) else { throw .notTIFF }
            big = true
            first = byteOrder.unsigned(offset)
        default:
            throw .notTIFF
        }
    }

    /// Whether the file is a BigTIFF.
    public var isBigTIFF: Bool { big }

    /// The pages of the main chain, in order, each with its SubIFDs.
    public func pages() throws(TIFFLayoutError) -> [TIFFPage] {
        var seen: Set<Int> = []
        var pages: [TIFFPage] = []
        var next = first
        while next != 0 {
            guard pages.count < Self.maxPages else { throw .tooMany("pages") }
            let (directory, following) = try directory(at: next, seen: &seen)
            var subs: [TIFFDirectory] = []
            if let offsets = directory.integers(330, limit: Self.maxSubDirectories, in: bytes) {
                for offset in offsets { subs.append(try self.directory(at: offset, seen: &seen).0) }
            } else if directory.has(330) {
                throw .tooMany("SubIFDs")
            }
            pages.append(TIFFPage(directory: directory, subDirectories: subs))
            next = following
        }
        return pages
    }

    /// The directory at `offset` and the offset of the next one (0: none).
    private func directory(at offset: Int, seen: inout Set<Int>) throws(TIFFLayoutError) -> (TIFFDirectory, Int) {
        guard seen.insert(offset).inserted else { throw .loop(offset: offset) }
        let countSize = big ? 8 : 2, entrySize = big ? 20 : 12, offsetSize = big ? 8 : 4
        guard let countBytes = bytes.read(at: offset, length: countSize) else { throw .pastTheEnd("a directory") }
        let count = byteOrder.unsigned(countBytes)
        guard count <= Self.maxEntries else { throw .tooMany("entries in a directory") }
        guard let table = bytes.read(at: offset + countSize, length: count * entrySize + offsetSize) else {
            throw .pastTheEnd("a directory's entries")
        }
        var entries: [UInt16: TIFFDirectory.Entry] = [:]
        for index in 0..<count {
            let at = index * entrySize
            let tag = UInt16(byteOrder.unsigned(Array(table[at..<at + 2])))
            let type = UInt16(byteOrder.unsigned(Array(table[at + 2..<at + 4])))
            let valueCount = byteOrder.unsigned(Array(table[at + 4..<at + 4 + (big ? 8 : 4)]))
            let field = at + (big ? 12 : 8)
            var entry = TIFFDirectory.Entry(type: type, count: valueCount, valueOffset: 0)
            guard let size = entry.valueSize else { continue }  // a type we do not read: skipped, as readers must
            let (length, overflow) = valueCount.multipliedReportingOverflow(by: size)
            if !overflow, length <= offsetSize {
                entry.valueOffset = offset + countSize + field
            } else {
                entry.valueOffset = byteOrder.unsigned(Array(table[field..<field + offsetSize]))
            }
            entries[tag] = entry
        }
        let next = byteOrder.unsigned(Array(table[(count * entrySize)...]))
        return (TIFFDirectory(offset: offset, entries: entries, byteOrder: byteOrder), next)
    }
}
