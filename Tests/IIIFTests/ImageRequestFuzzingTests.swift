import Foundation
import XCTest
@testable import IIIF

/// The IIIF fuzz target's checks over its seed corpus (Fuzz/iiif-corpus), crashes found since included.
final class ImageRequestFuzzingTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/iiif-corpus").standardized.path

    func testEveryCorpusFileHoldsTheFuzzChecks() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus)
        XCTAssertGreaterThanOrEqual(names.count, 9)
        for name in names {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: Self.corpus + "/" + name))
            data.withUnsafeBytes { ImageRequestFuzzing.check($0) }
        }
    }

    /// The seed that found the rotation bug: a 45° turn of a max-sized answer on a 10000×7500
    /// image must stay within maxArea as sent.
    func testTheTurnedMaxSeedResolvesWithinTheLimits() throws {
        let request = try ImageRequest(region: "0,0,10000,7500", size: "max", rotation: "45", qualityAndFormat: "default.png")
        let resolved = try request.resolved(width: 10000, height: 7500, limits: ImageLimits(maxArea: 50_000_001))
        ImageRequestFuzzing.checkResolved(resolved, width: 10000, height: 7500, limits: ImageLimits(maxArea: 50_000_001))
    }
}
