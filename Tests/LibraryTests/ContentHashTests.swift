import XCTest
@testable import Library

final class ContentHashTests: XCTestCase {
    func testChunkingDoesNotChangeTheHash() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = ContentHash.hex(of: bytes)
        for split in [0, 1, 31, 32, 33, 500, 999] {
            var hash = ContentHash()
            hash.update(Array(bytes[..<split]))
            hash.update(Array(bytes[split...]))
            XCTAssertEqual(hash.hex, whole, "split at \(split)")
        }
    }

    func testOneChangedByteChangesTheHash() {
        var bytes = [UInt8](repeating: 7, count: 4096)
        let before = ContentHash.hex(of: bytes)
        bytes[2048] = 8
        XCTAssertNotEqual(ContentHash.hex(of: bytes), before)
        XCTAssertNotEqual(ContentHash.hex(of: []), ContentHash.hex(of: [0]))
        XCTAssertEqual(before.count, 16)
    }
}
