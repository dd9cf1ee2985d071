/// A TIFF held in memory.
public struct TIFFMemoryBytes: TIFFBytes {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var count: Int { bytes.count }

    public func read(at offset: Int, length: Int) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else { return nil }
        return Array(bytes[offset..<offset + length])
    }
}
