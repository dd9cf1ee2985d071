import Foundation
import XCTest
@testable import Imaging

/// Regions cut from a built pyramid and from the photo itself: sizes, pixels checked against
/// libvips doing the same steps on the whole photo, rotation, mirroring, tones and formats.
final class RegionRenderingTests: XCTestCase {
    var fixtures: Fixtures!
    let settings = RenderSettings(jpegQuality: 95)

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// A 1000×700 gradient JPEG and its pyramid (maxZoom 2).
    func pyramid() throws -> (source: String, directory: String, pyramid: TilePyramid) {
        let source = try fixtures.gradient("photo.jpg", width: 1000, height: 700)
        let directory = fixtures.path("pyramid")
        let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        return (source, directory, pyramid)
    }

    /// libvips on the whole photo: crop, then resize to exactly width × height.
    func reference(_ source: String, _ r: RegionRendition) throws -> VipsImage {
        let photo = try VipsImage.open(source, access: .random)
        let piece = try photo.cropped(r.region)
        return try PhotoRenderer.scaled(piece, toWidth: r.width, height: r.height)
    }

    func testRegionsMatchLibvipsOnTheWholePhotoFromThePyramidAndFromTheSource() throws {
        let (source, directory, pyramid) = try pyramid()
        let renditions = [
            RegionRendition(region: PixelRect(x: 0, y: 0, width: 1000, height: 700), width: 250, height: 175),
            RegionRendition(region: PixelRect(x: 125, y: 15, width: 600, height: 400), width: 300, height: 200),
            // Native resolution across four tiles, and an edge region at the bottom right.
            RegionRendition(region: PixelRect(x: 200, y: 200, width: 150, height: 120), width: 150, height: 120),
            RegionRendition(region: PixelRect(x: 900, y: 650, width: 100, height: 50), width: 60, height: 30),
            // Upscaled and distorted.
            RegionRendition(region: PixelRect(x: 10, y: 10, width: 40, height: 40), width: 120, height: 60),
            // Between levels: parts of tiles across the native level to its bottom right edge, and
            // all of level 1, whose edge tiles are narrower.
            RegionRendition(region: PixelRect(x: 130, y: 90, width: 800, height: 560), width: 560, height: 392),
            RegionRendition(region: PixelRect(x: 333, y: 77, width: 667, height: 623), width: 534, height: 498),
            RegionRendition(region: PixelRect(x: 0, y: 0, width: 1000, height: 700), width: 310, height: 217),
        ]
        for r in renditions {
            let expected = try reference(source, r)
            let fromTiles = try fixtures.decode(try XCTUnwrap(PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, r, settings: settings)))
            let fromSource = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, r, settings: settings))
            for (name, image) in [("pyramid", fromTiles), ("source", fromSource)] {
                XCTAssertEqual([image.width, image.height], [r.width, r.height], "\(name) \(r.name)")
                XCTAssertLessThan(try image.meanAbsoluteDifference(to: expected), 4, "\(name) \(r.name)")
            }
        }
    }

    /// Squares 100 pixels wide, each of a colour far from its neighbours', as in the IIIF
    /// validator's own image: a region that is one square, at any size, shows that square only,
    /// to its edges, with nothing of a neighbour (a level read half a pixel off shows at once).
    func testARegionOfOneSquareShowsNothingOfItsNeighboursAtAnySize() throws {
        func colour(_ column: Int, _ row: Int) -> RGB {
            RGB(red: UInt8((column * 97 + row * 31) % 256), green: UInt8((column * 53 + row * 149) % 256),
                blue: UInt8((column * 181 + row * 71) % 256))
        }
        let drawn = try fixtures.ppm("squares.ppm", width: 1000, height: 1000) { x, y in colour(x / 100, y / 100) }
        let source = fixtures.path("squares.png")
        try fixtures.vips("copy", drawn, source)
        let directory = fixtures.path("squares")
        let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        for (column, row) in [(3, 2), (7, 8), (9, 9)] {
            for size in [25, 38, 60, 77, 100] {
                let r = RegionRendition(region: PixelRect(x: column * 100, y: row * 100, width: 100, height: 100), width: size, height: size)
                let image = try fixtures.decode(try XCTUnwrap(PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, r, settings: settings)))
                for (x, y) in [(0, 0), (size / 2, 0), (size - 1, 0), (0, size / 2), (size / 2, size / 2), (size - 1, size / 2),
                               (0, size - 1), (size / 2, size - 1), (size - 1, size - 1)] {
                    try assertPixel(image, x, y, is: colour(column, row), tolerance: 24, "square \(column),\(row) at \(size)")
                }
            }
        }
    }

    /// The tiles a region covers, decoded by blocks straight into place, are libvips' own decode
    /// of the same tiles, joined and cut, to the byte: at edges that fall inside a block on every
    /// side, on one tile or many, at the native level's narrower last column and row.
    func testCoveredTilesDecodeToTheSameBytesAsLibvipsJoiningThem() throws {
        let (_, directory, pyramid) = try pyramid()
        let z = pyramid.maxZoom
        let columns = 4, rows = 3  // 1000 × 700 in 256-pixel tiles: the last column 232 wide, the last row 188
        var tiles: [VipsImage] = []
        var paths: [String] = []
        for y in 0..<rows {
            for x in 0..<columns {
                let path = PhotoRenderer.tilePath(in: directory, TileCoordinate(z: z, x: x, y: y))
                paths.append(path)
                tiles.append(try VipsImage.open(path, access: .random))
            }
        }
        let whole = try VipsImage.joined(tiles, columns: columns)
        for rect in [PixelRect(x: 3, y: 5, width: 990, height: 690), PixelRect(x: 261, y: 269, width: 13, height: 7),
                     PixelRect(x: 250, y: 250, width: 20, height: 20), PixelRect(x: 517, y: 9, width: 483, height: 691),
                     PixelRect(x: 0, y: 0, width: 1000, height: 700), PixelRect(x: 999, y: 699, width: 1, height: 1)] {
            let decoded = try VipsImage.decodedJPEGTiles(paths, columns: columns, tileSize: 256, rect: rect)
            XCTAssertEqual([decoded.width, decoded.height], [rect.width, rect.height], "\(rect)")
            XCTAssertEqual(try decoded.meanAbsoluteDifference(to: try whole.cropped(rect)), 0, "\(rect)")
        }
        // A rectangle the grid does not cover is refused, not read past the tiles.
        for rect in [PixelRect(x: 0, y: 0, width: 1025, height: 700), PixelRect(x: 0, y: 700, width: 10, height: 69),
                     PixelRect(x: -1, y: 0, width: 10, height: 10)] {
            XCTAssertThrowsError(try VipsImage.decodedJPEGTiles(paths, columns: columns, tileSize: 256, rect: rect), "\(rect)")
        }
        XCTAssertThrowsError(try VipsImage.decodedJPEGTiles(Array(paths.dropLast()), columns: columns, tileSize: 256,
                                                            rect: PixelRect(x: 0, y: 0, width: 10, height: 10)))
    }

    /// A covered tile that is not a JPEG, is gone, or is smaller than its place, first or last
    /// (the two halves are decoded on two threads), fails the region with an error: no crash, no
    /// answer made of what was left (or of what the memory held before).
    func testADamagedOrMissingTileInEitherHalfFailsTheRegion() throws {
        let (_, directory, pyramid) = try pyramid()
        let region = RegionRendition(region: PixelRect(x: 0, y: 0, width: 1000, height: 700), width: 1000, height: 700)
        let small = try fixtures.gradient("small.jpg", width: 256, height: 128)
        for (x, y) in [(0, 0), (3, 2)] {
            let path = PhotoRenderer.tilePath(in: directory, TileCoordinate(z: pyramid.maxZoom, x: x, y: y))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try Data("not a JPEG".utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, region, settings: settings), "tile \(x),\(y) garbled")
            try Data(contentsOf: URL(fileURLWithPath: small)).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, region, settings: settings), "tile \(x),\(y) too small")
            try FileManager.default.removeItem(atPath: path)
            XCTAssertThrowsError(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, region, settings: settings), "tile \(x),\(y) gone")
            try bytes.write(to: URL(fileURLWithPath: path))
            XCTAssertNotNil(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, region, settings: settings))
        }
    }

    func testTheCoarsestLevelWithEnoughPixelsIsReadAndOnlyItsCoveredTiles() throws {
        let (_, directory, pyramid) = try pyramid()
        // Level 0 (250×175) has enough pixels for a quarter-size answer: remove every other level
        // and it still renders; a half-size answer needs level 1 and then fails.
        try FileManager.default.removeItem(atPath: directory + "/1")
        try FileManager.default.removeItem(atPath: directory + "/2")
        let quarter = RegionRendition(region: PixelRect(x: 0, y: 0, width: 1000, height: 700), width: 250, height: 175)
        XCTAssertNotNil(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, quarter, settings: settings))
        let half = RegionRendition(region: PixelRect(x: 0, y: 0, width: 1000, height: 700), width: 251, height: 176)
        XCTAssertThrowsError(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, half, settings: settings))
    }

    func testTooManyTilesFallBackToTheSource() throws {
        let source = try fixtures.gradient("wide.jpg", width: 4200, height: 4200)
        let directory = fixtures.path("wide")
        let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        // 17 × 17 native tiles: more than a join may read.
        let full = RegionRendition(region: PixelRect(x: 0, y: 0, width: 4200, height: 4200), width: 4200, height: 4200)
        XCTAssertNil(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, full, settings: settings))
        let half = RegionRendition(region: PixelRect(x: 0, y: 0, width: 4200, height: 4200), width: 2100, height: 2100)
        XCTAssertNotNil(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, half, settings: settings))
        let streamed = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, full, settings: settings))
        XCTAssertEqual([streamed.width, streamed.height], [4200, 4200])
    }

    func testMirroringAndQuarterTurnsAreLibvipsFlipAndRot() throws {
        try fixtures.vips("copy", try fixtures.quadrants("quadrants.ppm", width: 400, height: 200), fixtures.path("quadrants.png"))
        let source = fixtures.path("quadrants.png")
        let plain = RegionRendition(region: PixelRect(x: 0, y: 0, width: 400, height: 200), width: 200, height: 100, format: .png)
        let base = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, plain, settings: settings))
        for mirrored in [false, true] {
            for turns in 0..<4 {
                var r = plain
                r.mirrored = mirrored
                r.degrees = Double(turns * 90)
                let image = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, r, settings: settings))
                var expected = mirrored ? try base.flippedHorizontally() : base
                expected = try expected.rotated(quarterTurns: turns)
                XCTAssertEqual([image.width, image.height], [expected.width, expected.height], r.name)
                XCTAssertEqual(try image.meanAbsoluteDifference(to: expected), 0, r.name)
            }
        }
        // The colours land where IIIF says: mirrored, red (top left) is at the top right;
        // turned 90° clockwise, red is at the top right too, and blue (bottom left) at the top left.
        var r = plain
        r.mirrored = true
        let mirrored = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, r, settings: settings))
        try assertPixel(mirrored, 190, 10, is: Fixtures.quadrantColour(left: true, top: true))
        r.mirrored = false
        r.degrees = 90
        let turned = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, r, settings: settings))
        XCTAssertEqual([turned.width, turned.height], [100, 200])
        try assertPixel(turned, 90, 10, is: Fixtures.quadrantColour(left: true, top: true))
        try assertPixel(turned, 10, 10, is: Fixtures.quadrantColour(left: true, top: false))
    }

    func testArbitraryRotationFillsTheCorners() throws {
        try fixtures.vips("copy", try fixtures.quadrants("quadrants.ppm", width: 400, height: 200), fixtures.path("quadrants.png"))
        let source = fixtures.path("quadrants.png")
        let r = RegionRendition(region: PixelRect(x: 0, y: 0, width: 400, height: 200), width: 400, height: 200, degrees: 30, format: .png)
        let png = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, r, settings: settings))
        // The bounding box of the turned image, |w cos| + |h sin| by |h cos| + |w sin|.
        // (The angle named once, typed: spelled out twice in each expression it took a second to type-check.)
        let angle: Double = .pi / 6, cosine = cos(angle), sine = sin(angle)
        XCTAssertEqual(Double(png.width), 400 * cosine + 200 * sine, accuracy: 2)
        XCTAssertEqual(Double(png.height), 200 * cosine + 400 * sine, accuracy: 2)
        XCTAssertTrue(png.hasAlpha)
        XCTAssertEqual(try png.pixel(x: 0, y: 0).last, 0, "a transparent corner")
        var jpeg = r
        jpeg.format = .jpeg
        let flat = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, jpeg, settings: settings))
        try assertPixel(flat, 0, 0, is: RGB(red: 0, green: 0, blue: 0), tolerance: 8, "black in a JPEG's corner")
    }

    func testGreyAndBitonal() throws {
        let (source, directory, pyramid) = try pyramid()
        var r = RegionRendition(region: PixelRect(x: 0, y: 0, width: 1000, height: 700), width: 500, height: 350, tone: .gray, format: .png)
        let grey = try fixtures.decode(try XCTUnwrap(PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, r, settings: settings)))
        XCTAssertEqual(grey.bands, 1)
        // Luminance of the colour answer.
        var colour = r
        colour.tone = .color
        let expected = try fixtures.decode(try PhotoRenderer.renderRegion(source: source, colour, settings: settings)).greyscale()
        XCTAssertLessThan(try grey.meanAbsoluteDifference(to: expected), 2)
        r.tone = .bitonal
        let bitonal = try fixtures.decode(try XCTUnwrap(PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, r, settings: settings)))
        XCTAssertEqual(bitonal.bands, 1)
        var seen = Set<Double>()
        for y in stride(from: 0, to: 350, by: 7) { for x in stride(from: 0, to: 500, by: 7) { seen.insert(try bitonal.pixel(x: x, y: y)[0]) } }
        XCTAssertEqual(seen, [0, 255], "every pixel black or white, and both present")
    }

    func testFormats() throws {
        let source = try fixtures.gradient("photo.jpg", width: 300, height: 200)
        let magic: [(RegionRendition.ImageFormat, [UInt8])] = [
            (.jpeg, [0xFF, 0xD8, 0xFF]), (.png, [0x89, 0x50, 0x4E, 0x47]), (.webp, Array("RIFF".utf8)),
            (.gif, Array("GIF8".utf8)), (.tiff, [0x49, 0x49, 0x2A, 0x00]),
        ]
        for (format, prefix) in magic {
            let r = RegionRendition(region: PixelRect(x: 0, y: 0, width: 300, height: 200), width: 150, height: 100, format: format)
            let bytes = try PhotoRenderer.renderRegion(source: source, r, settings: settings)
            XCTAssertEqual(Array(bytes.prefix(prefix.count)), prefix, "\(format)")
            let image = try fixtures.decode(bytes, name: "out.\(format.rawValue)")
            XCTAssertEqual([image.width, image.height], [150, 100], "\(format)")
        }
    }

    func testUprightRegionsOfAPhotoWithAnExifTurn() throws {
        // Stored 200×400, shown turned (orientation 6) as 400×200 with red at the top left.
        let stored = try fixtures.quadrants("stored.ppm", width: 200, height: 400)
        try fixtures.vips("copy", stored, fixtures.path("stored.jpg"))
        try fixtures.addExif(to: fixtures.path("stored.jpg"), orientation: 6)
        let upright = try PhotoRenderer.renderRegion(source: fixtures.path("stored.jpg"),
                                                     RegionRendition(region: PixelRect(x: 0, y: 0, width: 400, height: 200), width: 400, height: 200),
                                                     settings: settings)
        let image = try fixtures.decode(upright)
        XCTAssertEqual([image.width, image.height], [400, 200])
        let corner = try fixtures.decode(try PhotoRenderer.renderRegion(source: fixtures.path("stored.jpg"),
                                                                         RegionRendition(region: PixelRect(x: 0, y: 0, width: 100, height: 50), width: 100, height: 50),
                                                                         settings: settings))
        // The same top-left corner either way.
        XCTAssertLessThan(try corner.meanAbsoluteDifference(to: try image.cropped(PixelRect(x: 0, y: 0, width: 100, height: 50))), 6)
    }
}
