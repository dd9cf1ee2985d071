/// Where a TIFF's bytes are read from: its file at offsets, or bytes in memory (tests, the fuzzer).
public protocol TIFFBytes {
    /// The file's length in bytes.
    var count: Int { get }
    /// `length` bytes at `offset`, or nil when they are not all there.
    func read(at offset: Int, length: Int) -> [UInt8]?
}
