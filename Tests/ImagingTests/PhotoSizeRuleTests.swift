import XCTest
@testable import Imaging

/// The size rule as a value: what the default lets through, what it refuses and why.
final class PhotoSizeRuleTests: XCTestCase {
    private let rule = PhotoSizeRule()

    /// 40000×24000 (960 MP) JPEG of a realistic size: built streamed within the default bound.
    func testNineHundredMegapixelJPEGIsAccepted() {
        let header = PhotoHeader(width: 40000, height: 24000, format: "jpeg", fileBytes: 200 << 20)
        XCTAssertNil(rule.refusal(header))
        XCTAssertLessThan(rule.buildMemory(header), 256 << 20, "a width's worth of strips, not the photo's area")
    }

    /// JPEG's widest: still within the default bound; one pixel more is JPEG's own limit.
    func testJPEGsOwnLimit() {
        XCTAssertNil(rule.refusal(PhotoHeader(width: 65500, height: 65500, format: "jpeg", fileBytes: 1 << 30)))
        XCTAssertEqual(rule.refusal(PhotoHeader(width: 65501, height: 100, format: "jpeg", fileBytes: 1 << 30)),
                       .overFormatLimit(width: 65501, height: 100, format: "jpeg", side: 65500))
    }

    /// A big TIFF is limited by its width's strips, not by a pixel count.
    func testWideTIFFWithinTheBoundIsAccepted() {
        XCTAssertNil(rule.refusal(PhotoHeader(width: 200_000, height: 100_000, format: "tiff", fileBytes: 20 << 30)))
        XCTAssertEqual(rule.refusal(PhotoHeader(width: 400_000, height: 1000, format: "tiff", fileBytes: 20 << 30)),
                       .overMemoryBound(width: 400_000, height: 1000, neededMegabytes: 1465, boundMegabytes: 1024))
    }

    /// What a loader decodes whole costs its area: an interlaced 960 MP PNG does not fit.
    func testWholeDecodesCostTheirArea() {
        let interlaced = PhotoHeader(width: 40000, height: 24000, format: "png", fileBytes: 2 << 30, decodesWhole: true)
        guard case .overMemoryBound(_, _, let needed, 1024)? = rule.refusal(interlaced) else {
            return XCTFail("\(String(describing: rule.refusal(interlaced)))")
        }
        XCTAssertGreaterThan(needed, 2700)
        XCTAssertTrue(SizeRefusal.overMemoryBound(width: 1, height: 1, neededMegabytes: 2, boundMegabytes: 1).description
            .contains("buildMemoryMegabytes"))
        var roomy = rule
        roomy.buildMemoryBytes = 4096 << 20
        XCTAssertNil(roomy.refusal(interlaced))
    }

    /// A file of a few hundred bytes claiming 65535² is a bomb; so is one overflowing Int.
    func testBombsAreRefusedFromTheHeader() {
        XCTAssertEqual(rule.refusal(PhotoHeader(width: 65535, height: 65535, format: "png", fileBytes: 400)),
                       .decompressionBomb(width: 65535, height: 65535, fileBytes: 400))
        XCTAssertEqual(rule.refusal(PhotoHeader(width: 1, height: 1, format: "png", fileBytes: 70)), nil)
        XCTAssertEqual(rule.refusal(PhotoHeader(width: 9_000_000, height: 9_000_000, bands: 4, bytesPerSample: 8, format: "tiff", fileBytes: 1000)),
                       .decompressionBomb(width: 9_000_000, height: 9_000_000, fileBytes: 1000))
        XCTAssertEqual(rule.refusal(PhotoHeader(width: 20_000_000, height: 1, format: "tiff", fileBytes: 1 << 30)),
                       .overFormatLimit(width: 20_000_000, height: 1, format: "libvips", side: 10_000_000))
    }

    /// A fixed cap, when set, refuses on top of the rest and names its setting.
    func testFixedCap() {
        let capped = PhotoSizeRule(maxImagePixels: 1000)
        XCTAssertEqual(capped.refusal(PhotoHeader(width: 40, height: 26, format: "png", fileBytes: 500)),
                       .overPixelCap(width: 40, height: 26, limit: 1000))
        XCTAssertNil(capped.refusal(PhotoHeader(width: 40, height: 25, format: "png", fileBytes: 500)))
        XCTAssertTrue(SizeRefusal.overPixelCap(width: 40, height: 26, limit: 1000).description.contains("maxImagePixels"))
    }
}
