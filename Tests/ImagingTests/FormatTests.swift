import Foundation
import XCTest
@testable import Imaging

/// Every format and colour layout a camera or an editor produces comes out as 8-bit sRGB JPEG tiles.
final class FormatTests: XCTestCase {
    private var fixtures: Fixtures!
    private let settings = RenderSettings()
    private let left = RGB(red: 60, green: 130, blue: 190)
    private let right = RGB(red: 200, green: 100, blue: 50)

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// 300×200, `left` colour on the left half, `right` on the right half.
    private func halves(_ name: String) throws -> String {
        try fixtures.ppm(name, width: 300, height: 200) { x, _ in x < 150 ? self.left : self.right }
    }

    /// Builds the pyramid and renders level 0 on demand; both must show `left` and `right`.
    private func assertRendersHalves(_ source: String, left: RGB? = nil, right: RGB? = nil, tolerance: Double = 12,
                                     settings custom: RenderSettings? = nil,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let settings = custom ?? settings
        let expectedLeft = left ?? self.left, expectedRight = right ?? self.right
        let directory = fixtures.path("pyramid-" + URL(fileURLWithPath: source).lastPathComponent)
        let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        XCTAssertEqual([pyramid.width, pyramid.height], [300, 200], file: file, line: line)
        let tile = TileCoordinate(z: 1, x: 0, y: 0)
        let built = try VipsImage.open(PhotoRenderer.tilePath(in: directory, tile), access: .random)
        let rendered = try fixtures.decode(try PhotoRenderer.renderTile(source: source, tile: tile, settings: settings))
        let top = try fixtures.decode(try PhotoRenderer.renderTile(source: source, tile: TileCoordinate(z: 0, x: 0, y: 0), settings: settings))
        for (image, what) in [(built, "pyramid"), (rendered, "rendered"), (top, "level 0")] {
            XCTAssertEqual(image.bands, 3, "\(what) of \(source)", file: file, line: line)
            XCTAssertFalse(image.hasField("icc-profile-data"), "\(what) keeps an ICC profile", file: file, line: line)
            let scale = image === top ? 2 : 1
            try assertPixel(image, 40 / scale, 100 / scale, is: expectedLeft, tolerance: tolerance, "\(what) of \(source)", file: file, line: line)
            try assertPixel(image, 240 / scale, 100 / scale, is: expectedRight, tolerance: tolerance, "\(what) of \(source)", file: file, line: line)
        }
        // Whichever square the crop picks, its left edge is in the left half and its right edge in the right half.
        let thumbnail = try fixtures.decode(try PhotoRenderer.thumbnail(source: source, settings: settings))
        XCTAssertEqual([thumbnail.width, thumbnail.height, thumbnail.bands], [256, 256, 3], file: file, line: line)
        try assertPixel(thumbnail, 10, 128, is: expectedLeft, tolerance: tolerance, "thumbnail of \(source)", file: file, line: line)
        try assertPixel(thumbnail, 245, 128, is: expectedRight, tolerance: tolerance, "thumbnail of \(source)", file: file, line: line)
    }

    func testCommonFormats() throws {
        let reference = try halves("reference.ppm")
        for target in ["photo.jpg[Q=95]", "progressive.jpg[Q=95,interlace]", "photo.png", "photo.webp[Q=95]",
                       "photo.tif", "photo.gif"] {
            try fixtures.vips("copy", reference, fixtures.path(target))
            let file = fixtures.path(String(target.prefix { $0 != "[" }))
            try assertRendersHalves(file)
        }
        XCTAssertEqual(try PhotoRenderer.probe(fixtures.path("photo.webp"), settings: settings).format, "webp")
        XCTAssertEqual(try PhotoRenderer.probe(fixtures.path("photo.tif"), settings: settings).format, "tiff")
        XCTAssertEqual(try PhotoRenderer.probe(fixtures.path("photo.gif"), settings: settings).format, "gif")
        XCTAssertEqual(try PhotoRenderer.probe(fixtures.path("photo.png"), settings: settings).format, "png")
    }

    func testHEIFWhenLibvipsHasIt() throws {
        let reference = try halves("reference.ppm")
        do {
            try fixtures.vips("copy", reference, fixtures.path("photo.avif[Q=90]"))
        } catch {
            throw XCTSkip("this libvips cannot write AVIF: \(error)")
        }
        XCTAssertEqual(try PhotoRenderer.probe(fixtures.path("photo.avif"), settings: settings).format, "heif")
        try assertRendersHalves(fixtures.path("photo.avif"), tolerance: 20)
    }

    func testCMYKComesOutInTheRightColours() throws {
        let reference = try halves("reference.ppm")
        try fixtures.vips("icc_transform", reference, fixtures.path("cmyk.jpg[Q=95]"), "cmyk", "--input-profile", "srgb")
        let header = try VipsImage.open(fixtures.path("cmyk.jpg"), access: .random)
        XCTAssertEqual(header.bands, 4)
        XCTAssertTrue(header.isCMYK)
        XCTAssertTrue(header.hasICCProfile)
        try assertRendersHalves(fixtures.path("cmyk.jpg"), tolerance: 20)

        // The same CMYK pixels without a profile: libvips' built-in CMYK profile stands in.
        try fixtures.vips("copy", fixtures.path("cmyk.jpg"), fixtures.path("bare-cmyk.jpg[Q=95,strip]"))
        XCTAssertFalse(try VipsImage.open(fixtures.path("bare-cmyk.jpg"), access: .random).hasICCProfile)
        try assertRendersHalves(fixtures.path("bare-cmyk.jpg"), tolerance: 20)
    }

    func testWideGamutPhotoIsConvertedToSRGB() throws {
        let reference = try halves("reference.ppm")
        try fixtures.vips("icc_transform", reference, fixtures.path("p3.jpg[Q=98]"), "p3", "--input-profile", "srgb")
        let stored = try VipsImage.open(fixtures.path("p3.jpg"), access: .random)
        let profile = try XCTUnwrap(stored.iccProfile.flatMap(ICCProfile.init))
        XCTAssertFalse(profile.isSRGB, "\(profile.description)")
        // The stored numbers are P3 numbers, visibly unlike the sRGB ones…
        let p3Left = try stored.pixel(x: 40, y: 100)
        XCTAssertGreaterThan(zip(p3Left, [Double(left.red), Double(left.green), Double(left.blue)]).map { abs($0 - $1) }.max()!, 10)
        // …and what comes out is sRGB again.
        try assertRendersHalves(fixtures.path("p3.jpg"), tolerance: 6)
    }

    func testProfilesAreRecognisedFromTheirBytes() throws {
        let reference = try halves("reference.ppm")
        try fixtures.vips("icc_transform", reference, fixtures.path("srgb.jpg"), "srgb", "--input-profile", "srgb")
        try fixtures.vips("icc_transform", reference, fixtures.path("cmyk.jpg"), "cmyk", "--input-profile", "srgb")
        let srgb = try XCTUnwrap(try VipsImage.open(fixtures.path("srgb.jpg"), access: .random).iccProfile.flatMap(ICCProfile.init))
        XCTAssertEqual(srgb.colourSpace, "RGB ")
        XCTAssertTrue(srgb.isSRGB, srgb.description)
        let cmyk = try XCTUnwrap(try VipsImage.open(fixtures.path("cmyk.jpg"), access: .random).iccProfile.flatMap(ICCProfile.init))
        XCTAssertEqual(cmyk.colourSpace, "CMYK")
        XCTAssertFalse(cmyk.isSRGB)
        XCTAssertNil(ICCProfile(Array(repeating: 7, count: 64)))
        XCTAssertNil(ICCProfile(Array(repeating: 0xFF, count: 400)), "a tag table pointing outside the bytes")
        // An sRGB-tagged photo needs no conversion and still comes out right.
        try assertRendersHalves(fixtures.path("srgb.jpg"))
    }

    func testSixteenBitPNGsBecomeEightBit() throws {
        let reference = try halves("reference.ppm")
        try fixtures.vips("linear", reference, fixtures.path("wide.v"), "257", "0")
        try fixtures.vips("cast", fixtures.path("wide.v"), fixtures.path("ushort.v"), "ushort")
        try fixtures.vips("copy", fixtures.path("ushort.v"), fixtures.path("rgb16.v"), "--interpretation", "rgb16")
        try fixtures.vips("pngsave", fixtures.path("rgb16.v"), fixtures.path("rgb16.png"), "--bitdepth", "16")
        try assertRendersHalves(fixtures.path("rgb16.png"))

        // 16-bit with alpha at 50 %: alpha must be scaled with the colour, not clipped to opaque.
        try fixtures.vips("bandjoin_const", fixtures.path("rgb16.v"), fixtures.path("rgba16.v"), "32896")
        try fixtures.vips("pngsave", fixtures.path("rgba16.v"), fixtures.path("rgba16.png"), "--bitdepth", "16")
        // Typed step by step: as one expression of literals this took seconds to type-check.
        func blend(_ c: UInt8) -> UInt8 {
            let over: Double = Double(c) * 128, under: Double = 255 * 127
            return UInt8((over + under) / 255)
        }
        try assertRendersHalves(fixtures.path("rgba16.png"),
                                left: RGB(red: blend(left.red), green: blend(left.green), blue: blend(left.blue)),
                                right: RGB(red: blend(right.red), green: blend(right.green), blue: blend(right.blue)), tolerance: 6)

        try fixtures.vips("extract_band", fixtures.path("ushort.v"), fixtures.path("grey.v"), "1")
        try fixtures.vips("copy", fixtures.path("grey.v"), fixtures.path("grey16.v"), "--interpretation", "grey16")
        try fixtures.vips("pngsave", fixtures.path("grey16.v"), fixtures.path("grey16.png"), "--bitdepth", "16")
        let greyLeft = RGB(red: left.green, green: left.green, blue: left.green)
        let greyRight = RGB(red: right.green, green: right.green, blue: right.green)
        try assertRendersHalves(fixtures.path("grey16.png"), left: greyLeft, right: greyRight)
    }

    func testEightBitGreyBecomesThreeEqualBands() throws {
        let reference = try halves("reference.ppm")
        try fixtures.vips("colourspace", reference, fixtures.path("grey.jpg[Q=95]"), "b-w")
        XCTAssertEqual(try VipsImage.open(fixtures.path("grey.jpg"), access: .random).bands, 1)
        let tile = try fixtures.decode(try PhotoRenderer.renderTile(source: fixtures.path("grey.jpg"), tile: TileCoordinate(z: 1, x: 0, y: 0), settings: settings))
        let p = try tile.pixel(x: 40, y: 100)
        XCTAssertEqual(p.count, 3)
        XCTAssertEqual(p[0], p[1], accuracy: 3)
        XCTAssertEqual(p[1], p[2], accuracy: 3)
    }

    func testHalfTransparentPNGIsFlattenedOntoTheBackground() throws {
        let reference = try halves("reference.ppm")
        try fixtures.vips("bandjoin_const", reference, fixtures.path("alpha.png"), "128")
        XCTAssertEqual(try VipsImage.open(fixtures.path("alpha.png"), access: .random).bands, 4)
        func blend(_ c: RGB, _ bg: RGB) -> RGB {
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
                let over: Double = Double(a) * 128, under: Double = Double(b) * 127
                return UInt8((over + under) / 255)
            }
            return RGB(red: mix(c.red, bg.red), green: mix(c.green, bg.green), blue: mix(c.blue, bg.blue))
        }
        let white = RGB(red: 255, green: 255, blue: 255)
        try assertRendersHalves(fixtures.path("alpha.png"), left: blend(left, white), right: blend(right, white), tolerance: 6)

        var onBlack = settings
        onBlack.background = RGB(red: 0, green: 0, blue: 0)
        let black = RGB(red: 0, green: 0, blue: 0)
        try fixtures.vips("copy", fixtures.path("alpha.png"), fixtures.path("alpha-black.png"))
        try assertRendersHalves(fixtures.path("alpha-black.png"), left: blend(left, black), right: blend(right, black),
                                tolerance: 6, settings: onBlack)
    }

    func testOnePixelPhotoIsOneLevelOfOneTile() throws {
        try fixtures.ppm("dot.ppm", width: 1, height: 1) { _, _ in RGB(red: 10, green: 200, blue: 30) }
        try fixtures.vips("copy", fixtures.path("dot.ppm"), fixtures.path("dot.png"))
        let directory = fixtures.path("dot")
        let pyramid = try PhotoRenderer.buildPyramid(source: fixtures.path("dot.png"), into: directory, settings: settings)
        XCTAssertEqual(pyramid.maxZoom, 0)
        XCTAssertEqual(pyramid.tileCount, 1)
        let files = Set(FileManager.default.enumerator(atPath: directory)!.compactMap { $0 as? String })
        XCTAssertEqual(files, ["0", "0/0_0.jpg", "thumbnail.jpg"])
        let tile = try VipsImage.open(PhotoRenderer.tilePath(in: directory, TileCoordinate(z: 0, x: 0, y: 0)), access: .random)
        XCTAssertEqual([tile.width, tile.height], [1, 1])
        try assertPixel(tile, 0, 0, is: RGB(red: 10, green: 200, blue: 30), tolerance: 12)
        let rendered = try fixtures.decode(try PhotoRenderer.renderTile(source: fixtures.path("dot.png"), tile: TileCoordinate(z: 0, x: 0, y: 0), settings: settings))
        XCTAssertEqual([rendered.width, rendered.height], [1, 1])
        let thumbnail = try VipsImage.open(directory + "/thumbnail.jpg", access: .random)
        XCTAssertEqual([thumbnail.width, thumbnail.height], [256, 256])
    }

    func testMetadataIsStripped() throws {
        let reference = try halves("reference.ppm")
        // An Adobe-style profile and EXIF with a GPS position, as a phone would write.
        try fixtures.vips("icc_transform", reference, fixtures.path("tagged.jpg[Q=95]"), "srgb", "--input-profile", "srgb")
        try fixtures.addExif(to: fixtures.path("tagged.jpg"), orientation: 1, gps: true)
        let source = try VipsImage.open(fixtures.path("tagged.jpg"), access: .random)
        XCTAssertTrue(source.hasField("exif-data"))
        XCTAssertTrue(source.hasField("exif-ifd3-GPSLatitudeRef"), "fixture carries a GPS position")
        XCTAssertTrue(source.hasICCProfile)

        let directory = fixtures.path("pyramid")
        _ = try PhotoRenderer.buildPyramid(source: fixtures.path("tagged.jpg"), into: directory, settings: settings)
        let outputs = [
            try VipsImage.open(PhotoRenderer.tilePath(in: directory, TileCoordinate(z: 1, x: 0, y: 0)), access: .random),
            try VipsImage.open(directory + "/thumbnail.jpg", access: .random),
            try fixtures.decode(try PhotoRenderer.renderTile(source: fixtures.path("tagged.jpg"), tile: TileCoordinate(z: 1, x: 1, y: 0), settings: settings)),
            try fixtures.decode(try PhotoRenderer.thumbnail(source: fixtures.path("tagged.jpg"), settings: settings)),
        ]
        for (index, image) in outputs.enumerated() {
            XCTAssertFalse(image.hasField("exif-data"), "output \(index) has EXIF")
            XCTAssertFalse(image.hasField("exif-ifd3-GPSLatitudeRef"), "output \(index) has GPS")
            XCTAssertFalse(image.hasField("xmp-data"), "output \(index) has XMP")
            XCTAssertFalse(image.hasICCProfile, "output \(index) has an ICC profile")
        }
    }
}
