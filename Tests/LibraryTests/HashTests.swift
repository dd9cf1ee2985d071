import Foundation
import XCTest
@testable import Library

final class HashTests: XCTestCase {
    func testVersionDigestChunkingDoesNotChangeIt() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = VersionDigest.hex(of: bytes)
        for split in [0, 1, 31, 32, 33, 500, 999] {
            var hash = VersionDigest()
            hash.update(Array(bytes[..<split]))
            hash.update(Array(bytes[split...]))
            XCTAssertEqual(hash.hex, whole, "split at \(split)")
        }
    }

    func testVersionsKeepTheirOldNames() {
        // Versions name tile folders on disk and URLs handed out: they must never change.
        XCTAssertEqual(VersionDigest.hex(of: Array("photo".utf8)), "b9cc53618bd230f5")
    }

    func testContentHashIsXXH3OfTheBytes() throws {
        XCTAssertEqual(ContentHash.hex(of: []), "2d06800538d394c2") // XXH3-64 of nothing, seed 0
        var bytes = [UInt8](repeating: 7, count: 3 << 20)
        let before = ContentHash.hex(of: bytes)
        bytes[2048] = 8
        XCTAssertNotEqual(ContentHash.hex(of: bytes), before)
        let path = NSTemporaryDirectory() + "hash-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Over 1 MiB chunks, the file's hash is the bytes' hash; the legacy one comes from the same read.
        let hashes = try ContentHash.file(path, alsoLegacy: true)
        XCTAssertEqual(hashes.xxh3, ContentHash.hex(of: bytes))
        XCTAssertEqual(hashes.legacy, VersionDigest.hex(of: bytes))
        XCTAssertNil(try ContentHash.file(path).legacy)
        XCTAssertThrowsError(try ContentHash.file(path + ".missing"))
    }
}
