/// The fuzzer's bytes, read one at a time; zeros once they run out.
struct InputBytes {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ data: UnsafeRawBufferPointer) { bytes = Array(data) }

    var isEmpty: Bool { offset >= bytes.count }

    mutating func next() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }
}
