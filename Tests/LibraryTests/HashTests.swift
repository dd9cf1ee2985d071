import Foundation
import XCTest
import Imaging
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

    func testOneShotDigestIsTheStreamedOne() {
        let bytes = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ 3) }
        for count in [0, 1, 16, 31, 32, 33, 41, 64, 95, 200] {
            let prefix = Array(bytes[..<count])
            let oneShot = prefix.withUnsafeBytes { VersionDigest.digest(of: $0) }
            XCTAssertEqual(ContentHash.hex(oneShot), VersionDigest.hex(of: prefix), "\(count) bytes")
        }
    }

    func testVersionNamesAreTheDigestOfHashAndSettings() {
        // The fast path names every version exactly as the streamed digest of "hash|settings" did.
        let names = VersionNames(RenderSettings())
        for hash in ["", "a", "2d06800538d394c2", "unhashed|trips/2019/IMG_0001.jpg|2811934|1700000000123456789|88123",
                     String(repeating: "f", count: 40)] {
            let streamed = String(VersionDigest.hex(of: Array((hash + "|" + names.key).utf8)).prefix(12))
            XCTAssertEqual(names.version(contentHash: hash), streamed, hash)
        }
        XCTAssertEqual(ContentHash.hex(0x0123_4567_89ab_cdef, digits: 12), "0123456789ab")
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
