/// One image file directory: its entries by tag, each value read where it lies only when asked.
public struct TIFFDirectory: Sendable, Hashable {
    /// One entry: a field's type, its number of values and where its value bytes start.
    struct Entry: Sendable, Hashable {
        var type: UInt16
        var count: Int
        /// Absolute offset of the first value byte (inside the entry when they fit there).
        var valueOffset: Int

        /// Bytes one value takes, or nil for a type this reader does not know.
        var valueSize: Int? {
            switch type {
            case 1, 2, 6, 7: 1          // BYTE, ASCII, SBYTE, UNDEFINED
            case 3, 8: 2                // SHORT, SSHORT
            case 4, 9, 11, 13: 4        // LONG, SLONG, FLOAT, IFD
            case 5, 10, 12, 16, 17, 18: 8  // RATIONAL, SRATIONAL, DOUBLE, LONG8, SLONG8, IFD8
            default: nil
            }
        }
    }

    /// Where the directory starts in the file.
    public let offset: Int
    let entries: [UInt16: Entry]
    let byteOrder: TIFFByteOrder

    /// Whether the directory has a field.
    public func has(_ tag: UInt16) -> Bool { entries[tag] != nil }

    /// The field's first unsigned integer value, or nil when absent or not an integer type.
    public func integer(_ tag: UInt16, in bytes: TIFFBytes) -> Int? {
        guard let entry = entries[tag], entry.count >= 1 else { return nil }
        return integer(entry, index: 0, in: bytes)
    }

    /// The field's integer values, at most `limit` of them (nil beyond, or when unreadable).
    public func integers(_ tag: UInt16, limit: Int, in bytes: TIFFBytes) -> [Int]? {
        guard let entry = entries[tag], entry.count <= limit else { return nil }
        return (0..<entry.count).map { integer(entry, index: $0, in: bytes) }.reduce(into: [Int]?([])) { all, value in
            guard let value, all != nil else { all = nil; return }
            all!.append(value)
        }
    }

    /// Where the field's integer array lies: its first byte, its number of values and their size,
    /// checked to lie within the file.
    public func array(_ tag: UInt16, in bytes: TIFFBytes) throws(TIFFLayoutError) -> TIFFIntegerArray? {
        guard let entry = entries[tag] else { return nil }
        guard [3, 4, 16].contains(entry.type), let size = entry.valueSize else {
            throw .inconsistent("field \(tag) is not an array of integers")
        }
        let (length, overflow) = entry.count.multipliedReportingOverflow(by: size)
        guard !overflow, entry.valueOffset >= 0, entry.valueOffset <= bytes.count - length else {
            throw .pastTheEnd("field \(tag)")
        }
        return TIFFIntegerArray(offset: entry.valueOffset, count: entry.count, elementSize: size, byteOrder: byteOrder)
    }

    /// The field's raw bytes (an UNDEFINED or BYTE field: JPEG tables, an ICC profile), at most `limit`.
    public func blob(_ tag: UInt16, limit: Int, in bytes: TIFFBytes) -> [UInt8]? {
        guard let entry = entries[tag], let size = entry.valueSize, size == 1, entry.count <= limit else { return nil }
        return bytes.read(at: entry.valueOffset, length: entry.count)
    }

    private func integer(_ entry: Entry, index: Int, in bytes: TIFFBytes) -> Int? {
        guard [1, 3, 4, 13, 16, 18].contains(entry.type), let size = entry.valueSize else { return nil }
        let (at, overflow) = entry.valueOffset.addingReportingOverflow(index * size)
        guard !overflow, let value = bytes.read(at: at, length: size) else { return nil }
        return byteOrder.unsigned(value)
    }
}
