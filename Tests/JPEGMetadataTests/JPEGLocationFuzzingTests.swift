import Foundation
import XCTest
@testable import JPEGMetadata

/// The JPEG location fuzz target's checks over its seed corpus (Fuzz/jpeg-corpus), and what the
/// seeds with a location come out as.
final class JPEGLocationFuzzingTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/jpeg-corpus").standardized.path

    func testEveryCorpusFileHoldsTheFuzzChecksAndLosesItsLocation() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus)
        XCTAssertGreaterThanOrEqual(names.count, 10)
        for name in names {
            let bytes = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: Self.corpus + "/" + name)))
            bytes.withUnsafeBytes { JPEGLocationFuzzing.check($0) }
            let output = try JPEGLocation.removed(from: bytes)
            let text = String(decoding: output, as: UTF8.self)
            for place in ["GPS", "Paris", "France", "FRA", "Quay", "MPF"] { XCTAssertFalse(text.contains(place), "\(name): \(place)") }
        }
    }
}
