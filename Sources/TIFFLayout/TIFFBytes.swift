/// Where a TIFF's bytes are read from: its file at offsets, or bytes in memory (tests, the fuzzer).
public protocol TIFFBytes {
    /// The file's length in bytes.
    var count: Int { get }
    /// `length` bytes at `offset`, or nil when they are not all there.
    func read(at offset: Int, length: Int) -> [UInt8]?
}

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
