import Foundation
import XCTest
@testable import Imaging

/// The region path's shrink, a triangle kernel computed in two passes over memory, against
/// libvips' own resize with the same kernel; and the straight JPEG encode of what it gives.
final class LinearShrinkTests: XCTestCase {
    var fixtures: Fixtures!

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// Detail at every scale (a gradient under noise from a fixed seed), in memory as a region's
    /// tiles are.
    func textured(width: Int, height: Int) throws -> VipsImage {
        var state: UInt32 = 12_345
        func noise() -> Int {
            state = state &* 1_103_515_245 &+ 12_345
            return Int(state >> 16 & 0x7F) - 64
        }
        func channel(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value + noise()))) }
        let path = try fixtures.ppm("textured-\(width)x\(height).ppm", width: width, height: height) { x, y in
            RGB(red: channel(x * 255 / width), green: channel(y * 255 / height), blue: channel(128))
        }
        return try lossless(path)
    }

    /// A PPM as a PNG (a format the server opens), opened into memory.
    func lossless(_ ppm: String) throws -> VipsImage {
        try fixtures.vips("copy", ppm, ppm + ".png")
        return try VipsImage.open(ppm + ".png", access: .random).inMemory()
    }

    func testShrinksAsLibvipsResizesWithTheSameKernel() throws {
        let image = try textured(width: 640, height: 480)
        // Just under 2:1, between, just over 1:1, one axis alone, odd sizes, down to one pixel.
        for (width, height) in [(321, 241), (400, 300), (333, 251), (639, 479), (640, 300), (200, 480), (17, 13), (1, 1)] {
            let ours = try image.shrunkLinearly(toWidth: width, height: height)
            let theirs = try PhotoRenderer.scaled(image, toWidth: width, height: height)
            XCTAssertEqual([ours.width, ours.height, ours.bands], [width, height, image.bands], "\(width)×\(height)")
            let difference = try ours.meanAbsoluteDifference(to: theirs)
            XCTAssertLessThan(difference, width * height > 100 ? 0.5 : 4, "\(width)×\(height)")
        }
    }

    /// Weights that add up to exactly one: a flat colour stays that colour to the last pixel,
    /// edges included, and a shrink to the same size changes nothing.
    func testAFlatColourStaysExactlyThatColourAndTheSameSizeIsACopy() throws {
        let flat = try lossless(try fixtures.ppm("flat.ppm", width: 300, height: 200) { _, _ in RGB(red: 201, green: 7, blue: 99) })
        let shrunk = try flat.shrunkLinearly(toWidth: 157, height: 101)
        for (x, y) in [(0, 0), (156, 100), (78, 50), (156, 0), (0, 100)] {
            XCTAssertEqual(try shrunk.pixel(x: x, y: y), [201, 7, 99], "(\(x), \(y))")
        }
        XCTAssertEqual(try shrunk.meanAbsoluteDifference(to: try flat.cropped(PixelRect(x: 0, y: 0, width: 157, height: 101))), 0)
        let image = try textured(width: 120, height: 90)
        XCTAssertEqual(try image.shrunkLinearly(toWidth: 120, height: 90).meanAbsoluteDifference(to: image), 0)
    }

    /// A rectangle cut from an image in memory is read where it lies, and gives what the same
    /// rectangle copied out gives; a size larger than the image is refused.
    func testACutIsReadInPlaceAndALargerSizeIsRefused() throws {
        let image = try textured(width: 400, height: 300)
        let rect = PixelRect(x: 37, y: 21, width: 301, height: 233)
        let inPlace = try image.cropped(rect).shrunkLinearly(toWidth: 200, height: 150)
        let copied = try image.cropped(rect).inMemory().shrunkLinearly(toWidth: 200, height: 150)
        XCTAssertEqual(try inPlace.meanAbsoluteDifference(to: copied), 0)
        XCTAssertThrowsError(try image.shrunkLinearly(toWidth: 401, height: 300))
        XCTAssertThrowsError(try image.shrunkLinearly(toWidth: 400, height: 0))
    }

    /// What the shrink leaves is encoded as libvips' jpegsave would: the region's answer decodes
    /// to the same pixels as libvips' encoding of the same tiles decoded and shrunk.
    func testARegionIsEncodedAsLibvipsEncodesTheSamePixels() throws {
        let settings = RenderSettings(jpegQuality: 85)
        let source = try fixtures.gradient("photo.jpg", width: 1000, height: 700)
        let directory = fixtures.path("pyramid")
        let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        let rendition = RegionRendition(region: PixelRect(x: 130, y: 90, width: 800, height: 560), width: 560, height: 392)
        let answer = try fixtures.decode(try XCTUnwrap(PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, rendition,
                                                                                  settings: settings)))
        var paths: [String] = []
        for y in 0..<3 {
            for x in 0..<4 { paths.append(PhotoRenderer.tilePath(in: directory, TileCoordinate(z: pyramid.maxZoom, x: x, y: y))) }
        }
        let pixels = try VipsImage.decodedJPEGTiles(paths, columns: 4, tileSize: 256, rect: PixelRect(x: 130, y: 90, width: 800, height: 560))
            .shrunkLinearly(toWidth: 560, height: 392)
        let libvips = try fixtures.decode(try pixels.jpeg(quality: 85))
        XCTAssertEqual(try answer.meanAbsoluteDifference(to: libvips), 0)
    }

    /// A region's JPEG is encoded in two parts at once, one per thread, joined at a restart
    /// marker: at every size it decodes to exactly the pixels of the same shrink encoded in one go,
    /// at both chroma layouts (halved below quality 90, whole from 90). Images too short to cut in
    /// two block rows are encoded in one go and carry no restart interval.
    func testARegionCutInTwoDecodesAsTheSameShrinkEncodedInOneGo() throws {
        let source = try fixtures.gradient("photo.jpg", width: 1000, height: 700)
        let rect = PixelRect(x: 130, y: 90, width: 800, height: 560)
        for quality in [85, 95] {
            let settings = RenderSettings(jpegQuality: quality)
            let directory = fixtures.path("pyramid-\(quality)")
            let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
            var paths: [String] = []
            for y in 0..<3 {
                for x in 0..<4 { paths.append(PhotoRenderer.tilePath(in: directory, TileCoordinate(z: pyramid.maxZoom, x: x, y: y))) }
            }
            let block = quality >= 90 ? 8 : 16
            // Every width over half the rectangle's, so that each region comes from the top level, as `paths` do.
            for (width, height) in [(560, 15), (560, 16), (401, 31), (560, 32), (561, 33), (799, 47), (560, 392), (800, 560)] {
                let bytes = try XCTUnwrap(PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory,
                                                                    RegionRendition(region: rect, width: width, height: height),
                                                                    settings: settings))
                let restarts = zip(bytes, bytes.dropFirst()).contains { $0 == 0xFF && $1 == 0xDD }
                XCTAssertEqual(restarts, height / block >= 2, "\(width)×\(height) at \(quality)")
                let pixels = try VipsImage.decodedJPEGTiles(paths, columns: 4, tileSize: 256, rect: rect)
                    .shrunkLinearly(toWidth: width, height: height)
                let answer = try fixtures.decode(bytes)
                XCTAssertEqual(answer.width, width)
                XCTAssertEqual(answer.height, height)
                XCTAssertEqual(try answer.meanAbsoluteDifference(to: try fixtures.decode(try pixels.jpeg(quality: quality))), 0,
                               "\(width)×\(height) at \(quality)")
            }
        }
    }
}
