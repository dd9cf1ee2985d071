import Foundation
import XCTest
@testable import Imaging

/// buildPyramid and renderTile on small photos: the files on disk are exactly TilePyramid's tiles.
final class PyramidBuildTests: XCTestCase {
    private var fixtures: Fixtures!
    private let settings = RenderSettings()

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    func testEveryTileHasItsGeometricSize() throws {
        for (width, height) in [(1000, 700), (777, 333), (257, 1), (1001, 999), (513, 3), (256, 256)] {
            let source = try fixtures.gradient("photo-\(width).jpg", width: width, height: height)
            let directory = fixtures.path("pyramid-\(width)")
            let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
            XCTAssertEqual(pyramid, TilePyramid(width: width, height: height, tileSize: 256))

            var expected: Set<String> = ["thumbnail.jpg"]
            for z in 0...pyramid.maxZoom {
                expected.insert("\(z)")
                let grid = pyramid.grid(z)!
                for x in 0..<grid.columns {
                    for y in 0..<grid.rows {
                        let tile = TileCoordinate(z: z, x: x, y: y)
                        let path = PhotoRenderer.tilePath(in: directory, tile)
                        expected.insert(String(path.dropFirst(directory.count + 1)))
                        let image = try VipsImage.open(path, access: .random)
                        let rect = pyramid.rect(tile)!
                        XCTAssertEqual(image.width, rect.width, "\(width)×\(height) tile \(tile)")
                        XCTAssertEqual(image.height, rect.height, "\(width)×\(height) tile \(tile)")
                        XCTAssertEqual(image.bands, 3)
                    }
                }
            }
            let found = Set(FileManager.default.enumerator(atPath: directory)!.compactMap { $0 as? String })
            XCTAssertEqual(found, expected, "no missing and no extra files")
            let thumbnail = try VipsImage.open(directory + "/thumbnail.jpg", access: .random)
            XCTAssertEqual([thumbnail.width, thumbnail.height], [256, 256])
            let siblings = try FileManager.default.contentsOfDirectory(atPath: fixtures.directory)
            XCTAssertFalse(siblings.contains { $0.contains(".partial-") }, "staging directory left behind: \(siblings)")
        }
    }

    func testOtherTileSizes() throws {
        let source = try fixtures.gradient("photo.jpg", width: 777, height: 333)
        for tileSize in [128, 512] {
            var custom = settings
            custom.tileSize = tileSize
            let directory = fixtures.path("pyramid-\(tileSize)")
            let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: custom)
            XCTAssertEqual(pyramid, TilePyramid(width: 777, height: 333, tileSize: tileSize))
            let corner = TileCoordinate(z: pyramid.maxZoom, x: pyramid.grid(pyramid.maxZoom)!.columns - 1, y: pyramid.grid(pyramid.maxZoom)!.rows - 1)
            let rect = pyramid.rect(corner)!
            let built = try VipsImage.open(PhotoRenderer.tilePath(in: directory, corner), access: .random)
            XCTAssertEqual([built.width, built.height], [rect.width, rect.height], "tile size \(tileSize)")
            let rendered = try fixtures.decode(try PhotoRenderer.renderTile(source: source, tile: corner, settings: custom))
            XCTAssertEqual([rendered.width, rendered.height], [rect.width, rect.height], "tile size \(tileSize)")
            let files = FileManager.default.enumerator(atPath: directory)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") }
            XCTAssertEqual(files.count, pyramid.tileCount + 1, "tile size \(tileSize)")
        }
    }

    func testRenderedTilesMatchThePyramid() throws {
        let source = try fixtures.gradient("photo.jpg", width: 777, height: 333)
        let directory = fixtures.path("pyramid")
        let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        for z in 0...pyramid.maxZoom {
            let grid = pyramid.grid(z)!
            for x in 0..<grid.columns {
                for y in 0..<grid.rows {
                    let tile = TileCoordinate(z: z, x: x, y: y)
                    let rendered = try fixtures.decode(try PhotoRenderer.renderTile(source: source, tile: tile, settings: settings))
                    let stored = try VipsImage.open(PhotoRenderer.tilePath(in: directory, tile), access: .random)
                    XCTAssertEqual([rendered.width, rendered.height], [stored.width, stored.height], "tile \(tile)")
                    XCTAssertLessThan(try rendered.meanAbsoluteDifference(to: stored), 4, "tile \(tile) pixels")
                }
            }
        }
        XCTAssertThrowsError(try PhotoRenderer.renderTile(source: source, tile: TileCoordinate(z: 3, x: 0, y: 0), settings: settings)) {
            XCTAssertEqual($0 as? ImagingError, .noSuchTile(TileCoordinate(z: 3, x: 0, y: 0)))
        }
        XCTAssertThrowsError(try PhotoRenderer.renderTile(source: source, tile: TileCoordinate(z: 2, x: 4, y: 0), settings: settings))
    }

    /// Low levels of a JPEG come from shrink-on-load and still have exact sizes and the right colours.
    func testShrinkOnLoadLevelsOfALargerJPEG() throws {
        let source = try fixtures.gradient("wide.jpg", width: 3001, height: 1999)
        let pyramid = TilePyramid(width: 3001, height: 1999)
        XCTAssertEqual(pyramid.maxZoom, 4)
        for z in 0...pyramid.maxZoom {
            let tile = TileCoordinate(z: z, x: 0, y: 0)
            let image = try fixtures.decode(try PhotoRenderer.renderTile(source: source, tile: tile, settings: settings))
            let rect = pyramid.rect(tile)!
            XCTAssertEqual([image.width, image.height], [rect.width, rect.height], "level \(z)")
            // Top left of the gradient is black-ish in every level.
            try assertPixel(image, 0, 0, is: RGB(red: 0, green: 0, blue: 0), tolerance: 12, "level \(z)")
        }
        let corner = TileCoordinate(z: 4, x: 11, y: 7)
        let image = try fixtures.decode(try PhotoRenderer.renderTile(source: source, tile: corner, settings: settings))
        XCTAssertEqual([image.width, image.height], [3001 - 11 * 256, 1999 - 7 * 256])
        try assertPixel(image, image.width - 1, image.height - 1, is: RGB(red: 255, green: 255, blue: 127), tolerance: 12)
    }

    func testAPyramidAlreadyInPlaceIsKept() throws {
        let source = try fixtures.gradient("photo.png", width: 300, height: 200)
        let directory = fixtures.path("pyramid")
        _ = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        let marker = directory + "/marker"
        XCTAssertTrue(FileManager.default.createFile(atPath: marker, contents: Data()))
        let again = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        XCTAssertEqual(again, TilePyramid(width: 300, height: 200))
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker), "the first pyramid stays")
        XCTAssertTrue(FileManager.default.fileExists(atPath: PhotoRenderer.tilePath(in: directory, TileCoordinate(z: 1, x: 1, y: 0))))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: fixtures.directory)
        XCTAssertFalse(siblings.contains { $0.contains(".partial-") }, "\(siblings)")
    }

    func testTwoBuildsRacingForOneFolderLeaveOneWholePyramid() throws {
        let source = try fixtures.gradient("photo.jpg", width: 900, height: 600)
        let directory = fixtures.path("pyramid")
        let failures = FailureLog()
        let settings = self.settings
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                _ = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
            } catch {
                failures.record(error)
            }
        }
        XCTAssertEqual(failures.errors.count, 0, "\(failures.errors)")
        let pyramid = TilePyramid(width: 900, height: 600)
        let files = FileManager.default.enumerator(atPath: directory)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(files.count, pyramid.tileCount + 1)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: fixtures.directory)
        XCTAssertFalse(siblings.contains { $0.contains(".partial-") }, "\(siblings)")
    }

    func testAFailedBuildLeavesNothing() throws {
        let truncated = try fixtures.gradient("whole.jpg", width: 900, height: 900)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: truncated))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: fixtures.path("half.jpg")))
        XCTAssertThrowsError(try PhotoRenderer.buildPyramid(source: fixtures.path("half.jpg"), into: fixtures.path("pyramid"), settings: settings)) {
            guard case .corrupt = $0 as? ImagingError else { return XCTFail("\($0)") }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: fixtures.directory)
        XCTAssertEqual(Set(left), ["whole.jpg", "whole.jpg.ppm", "half.jpg"])
    }

    /// libvips reads "name[options]" as load options; a photo may be called that all the same.
    func testFileNamesThatLookLikeLoadOptions() throws {
        let photo = try fixtures.gradient("beach.jpg", width: 300, height: 200)
        let odd = fixtures.path("beach.jpg[shrink=2]")
        try FileManager.default.moveItem(atPath: photo, toPath: odd)
        XCTAssertEqual(try PhotoRenderer.probe(odd, settings: settings), ImageInfo(width: 300, height: 200, orientation: 1, format: "jpeg"))
        let pyramid = try PhotoRenderer.buildPyramid(source: odd, into: fixtures.path("odd"), settings: settings)
        XCTAssertEqual([pyramid.width, pyramid.height], [300, 200])
        let tile = try fixtures.decode(try PhotoRenderer.renderTile(source: odd, tile: TileCoordinate(z: 1, x: 1, y: 0), settings: settings))
        XCTAssertEqual([tile.width, tile.height], [44, 200])
    }

    /// The pyramid's thumbnail comes from its tiles; it must show the same picture as one made from the photo.
    func testPyramidThumbnailMatchesTheSourceThumbnail() throws {
        for (width, height) in [(900, 600), (1000, 1300)] {
            let source = try fixtures.gradient("photo-\(width).jpg", width: width, height: height)
            let directory = fixtures.path("pyramid-\(width)")
            _ = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
            let fromTiles = try VipsImage.open(directory + "/thumbnail.jpg", access: .random)
            let fromPhoto = try fixtures.decode(try PhotoRenderer.thumbnail(source: source, settings: settings))
            XCTAssertEqual([fromTiles.width, fromTiles.height], [256, 256])
            XCTAssertLessThan(try fromTiles.meanAbsoluteDifference(to: fromPhoto), 4, "\(width)×\(height)")
            // The bottom row is the lower gradient (green high), not black padding.
            XCTAssertGreaterThan(try fromTiles.pixel(x: 128, y: 255)[1], 150, "\(width)×\(height)")
        }
    }

    func testPanoramaThumbnailIsItsCentre() throws {
        // Left third red, middle third green, right third blue: only green is in the centre square.
        try fixtures.ppm("strip.ppm", width: 1800, height: 100) { x, _ in
            x < 600 ? RGB(red: 255, green: 0, blue: 0) : x < 1200 ? RGB(red: 0, green: 255, blue: 0) : RGB(red: 0, green: 0, blue: 255)
        }
        try fixtures.vips("copy", fixtures.path("strip.ppm"), fixtures.path("strip.png"))
        let thumbnail = try fixtures.decode(try PhotoRenderer.thumbnail(source: fixtures.path("strip.png"), settings: settings))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [256, 256])
        for (x, y) in [(5, 5), (128, 128), (250, 250)] {
            try assertPixel(thumbnail, x, y, is: RGB(red: 0, green: 255, blue: 0), tolerance: 20)
        }
    }

    func testThumbnailIsASquareOfTheConfiguredSize() throws {
        let source = try fixtures.gradient("tall.png", width: 200, height: 900)
        var custom = settings
        custom.thumbnailSize = 120
        let thumbnail = try fixtures.decode(try PhotoRenderer.thumbnail(source: source, settings: custom))
        XCTAssertEqual([thumbnail.width, thumbnail.height, thumbnail.bands], [120, 120, 3])
    }
}

/// Errors collected from several threads.
// @unchecked Sendable: `recorded` is guarded by `lock`.
private final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Error] = []
    func record(_ error: Error) { lock.lock(); recorded.append(error); lock.unlock() }
    var errors: [Error] { lock.lock(); defer { lock.unlock() }; return recorded }
}
