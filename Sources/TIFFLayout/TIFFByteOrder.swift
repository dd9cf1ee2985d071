/// Little-endian ("II") or big-endian ("MM") numbers.
public enum TIFFByteOrder: Sendable, Hashable {
    case little, big

    /// The bytes as one unsigned number (up to 8 bytes; larger than Int.max reads as Int.max,
    /// which no check accepts).
    func unsigned(_ bytes: [UInt8]) -> Int {
        var value: UInt64 = 0
        for byte in (self == .little ? bytes.reversed() : bytes) { value = value << 8 | UInt64(byte) }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }
}
