/// An array of unsigned integers in the file (tile offsets, byte counts), read one value at a time.
public struct TIFFIntegerArray: Sendable, Hashable {
    public let offset: Int
    public let count: Int
    let elementSize: Int
    let byteOrder: TIFFByteOrder

    /// Value `index`, or nil when it cannot be read.
    public func value(_ index: Int, in bytes: TIFFBytes) -> Int? {
        guard index >= 0, index < count, let raw = bytes.read(at: offset + index * elementSize, length: elementSize) else { return nil }
        return byteOrder.unsigned(raw)
    }
}
