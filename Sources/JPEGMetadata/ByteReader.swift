/// Bounds-checked reads of big- or little-endian integers out of a byte array: every read past
/// the end is an error, never a trap, whatever the offsets a hostile file holds.
struct ByteReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    var count: Int { bytes.count }

    func u8(_ offset: Int) throws(JPEGLocationError) -> Int {
        guard offset >= 0, offset < bytes.count else { throw JPEGLocationError("a value lies past the end of its block") }
        return Int(bytes[offset])
    }

    func u16(_ offset: Int) throws(JPEGLocationError) -> Int {
        guard offset >= 0, offset <= bytes.count - 2 else { throw JPEGLocationError("a value lies past the end of its block") }
        let a = Int(bytes[offset]), b = Int(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int) throws(JPEGLocationError) -> Int {
        guard offset >= 0, offset <= bytes.count - 4 else { throw JPEGLocationError("a value lies past the end of its block") }
        let b = (0..<4).map { Int(bytes[offset + $0]) }
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }

    /// Whether `length` bytes from `offset` are all inside.
    func contains(_ offset: Int, length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }
}

extension Array where Element == UInt8 {
    /// Writes `value` as two bytes at `offset` (the caller checked the bounds).
    mutating func put16(_ value: Int, at offset: Int, bigEndian: Bool) {
        self[offset] = UInt8(truncatingIfNeeded: bigEndian ? value >> 8 : value)
        self[offset + 1] = UInt8(truncatingIfNeeded: bigEndian ? value : value >> 8)
    }

    /// Writes `value` as four bytes at `offset` (the caller checked the bounds).
    mutating func put32(_ value: Int, at offset: Int, bigEndian: Bool) {
        for i in 0..<4 {
            let shift = bigEndian ? (3 - i) * 8 : i * 8
            self[offset + i] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }

    /// Whether the bytes at `offset` are `prefix`.
    func hasBytes(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
        offset >= 0 && offset <= count - prefix.count && self[offset..<(offset + prefix.count)].elementsEqual(prefix)
    }
}
