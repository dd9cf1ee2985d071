import Foundation
import XCTest
import TIFFLayout

/// The TIFF fuzz target's seeds (Fuzz/tiff-corpus), written by libvips: each holds the fuzz
/// checks, and each reads as the pyramid it is (pages, SubIFDs, BigTIFF) or as none (strips).
final class TIFFLayoutCorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/tiff-corpus").standardized.path

    func testEverySeedHoldsTheChecksAndReadsAsWhatItIs() throws {
        let expected: [String: (big: Bool, places: [TIFFLevel.Place])?] = [
            "pages-jpeg": (false, [.page(0), .page(1), .page(2)]),
            "subifd-deflate": (false, [.page(0), .subDirectory(0), .subDirectory(1)]),
            "bigtiff-none": (true, [.page(0), .page(1), .page(2)]),
            "strips": nil,
        ]
        for (name, shape) in expected {
            let bytes = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: Self.corpus + "/" + name), name))
            bytes.withUnsafeBytes { TIFFLayoutFuzzing.check($0) }
            let layout = try TIFFPyramidLayout.read(TIFFMemoryBytes(bytes))
            XCTAssertEqual(layout?.isBigTIFF, shape?.big, name)
            XCTAssertEqual(layout?.levels.map(\.place), shape?.places, name)
            XCTAssertEqual(layout?.levels.map { [$0.width, $0.height] }, shape.map { _ in [[64, 48], [32, 24], [16, 12]] }, name)
        }
    }
}
