import Foundation
import XCTest
@testable import HTTP

/// The fuzz target's checks over the parser's own table, and its seed corpus (Fuzz/corpus):
/// every table case is a seed, and every file there, seed or crash found since, keeps passing.
final class ParserFuzzingTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Fuzz/corpus").standardized.path

    /// Chunked bodies of the decoder's tests, seeds for the decoder half of the target.
    static let chunked = [
        "4\r\nWiki\r\n5;name=value\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\n",
        "10\r\n", "5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n",
        "zz\r\nab\r\n0\r\n\r\n", "2\r\nabc\r\n0\r\n\r\n", "2\nab\r\n0\r\n\r\n", "\r\n", "2 x\r\nab\r\n0\r\n\r\n",
        "d \r\nhello, world!\r\n0\r\n\r\n", "2 ; a = \"q\\\"\" ;b\r\nab\r\n0\r\n\r\n",
    ]

    /// Every seed: a file name and its bytes. The first byte picks the split point, so each
    /// case is also given once with a split byte in front.
    static var seeds: [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        for (index, (_, text, _)) in RequestParserTests.table.enumerated() {
            seeds.append((String(format: "head-%03d", index), Array(text.utf8)))
        }
        for (index, text) in chunked.enumerated() {
            seeds.append((String(format: "chunked-%03d", index), [UInt8(truncatingIfNeeded: text.utf8.count / 2)] + Array(text.utf8)))
        }
        return seeds
    }

    func testEveryTableCaseHoldsTheFuzzChecks() {
        for (_, bytes) in Self.seeds { bytes.withUnsafeBytes { ParserFuzzing.check($0) } }
    }

    /// `PHOTOSCROLL_WRITE_FUZZ_SEEDS=1 swift test --filter ParserFuzzingTests` rewrites the seeds.
    func testTheSeedCorpusHoldsEveryTableCase() throws {
        if ProcessInfo.processInfo.environment["PHOTOSCROLL_WRITE_FUZZ_SEEDS"] == "1" {
            try FileManager.default.createDirectory(atPath: Self.corpus, withIntermediateDirectories: true)
            for (name, bytes) in Self.seeds { try Data(bytes).write(to: URL(fileURLWithPath: Self.corpus + "/" + name)) }
        }
        for (name, bytes) in Self.seeds {
            XCTAssertEqual(FileManager.default.contents(atPath: Self.corpus + "/" + name).map(Array.init), bytes, "seed \(name)")
        }
    }

    func testEveryCorpusFileHoldsTheFuzzChecks() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus)
        XCTAssertGreaterThanOrEqual(names.count, Self.seeds.count)
        for name in names {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: Self.corpus + "/" + name))
            data.withUnsafeBytes { ParserFuzzing.check($0) }
        }
    }
}
