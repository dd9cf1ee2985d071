import Foundation
import XCTest
@testable import Imaging

/// Pyramidal TIFFs served in place: which files are, their tiles read from the file (as its own
/// JPEG bytes where they can be), levels the file lacks made from the nearest, and a build that
/// writes nothing but the thumbnail.
final class StoredPyramidTests: XCTestCase {
    private var fixtures: Fixtures!
    private let settings = RenderSettings()

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// A 1024×768 photo as a pyramidal TIFF of 256-pixel tiles, saved with `options`.
    private func tiff(_ name: String, _ options: String...) throws -> String {
        let photo = try fixtures.gradient("photo.png", width: 1024, height: 768)
        try fixtures.vips(["tiffsave", photo, fixtures.path(name), "--tile", "--tile-width", "256", "--tile-height", "256"] + options)
        return fixtures.path(name)
    }

    /// The tile the ordinary pyramid of the same photo has, to compare pixels with.
    private func reference(_ tile: TileCoordinate) throws -> VipsImage {
        let bytes = try PhotoRenderer.renderTile(source: fixtures.path("photo.png"), tile: tile, settings: settings)
        return try decoded(bytes, "reference-\(tile.z)-\(tile.x)-\(tile.y).jpg")
    }

    private func decoded(_ bytes: [UInt8], _ name: String) throws -> VipsImage {
        try Data(bytes).write(to: URL(fileURLWithPath: fixtures.path(name)))
        return try VipsImage.open(fixtures.path(name), access: .random)
    }

    func testPagesSubIFDsAndBigTIFFAreServedInPlace() throws {
        let files = [try tiff("pages.tif", "--pyramid", "--compression", "jpeg"),
                     try tiff("subifd.tif", "--pyramid", "--subifd", "--compression", "jpeg"),
                     try tiff("big.tif", "--pyramid", "--bigtiff", "--compression", "jpeg"),
                     try tiff("deflate.tif", "--pyramid", "--compression", "deflate"),
                     try tiff("none.tif", "--pyramid")]
        for file in files {
            let stored = try XCTUnwrap(try PhotoRenderer.storedPyramid(.file(file), settings: settings), file)
            XCTAssertEqual([stored.pyramid.width, stored.pyramid.height, stored.pyramid.maxZoom], [1024, 768, 2], file)
            XCTAssertEqual(stored.layout.isBigTIFF, file.hasSuffix("big.tif"), file)
            for z in 0...2 { XCTAssertNotNil(stored.stored(z), "\(file) level \(z)") }
            for tile in [TileCoordinate(z: 2, x: 1, y: 1), TileCoordinate(z: 2, x: 3, y: 2), TileCoordinate(z: 0, x: 0, y: 0)] {
                let bytes = try XCTUnwrap(try PhotoRenderer.storedTile(source: .file(file), tile: tile, settings: settings))
                let image = try decoded(bytes, "tile.jpg")
                let rect = stored.pyramid.rect(tile)!
                XCTAssertEqual([image.width, image.height], [rect.width, rect.height], "\(file) \(tile)")
                XCTAssertLessThan(try image.meanAbsoluteDifference(to: try reference(tile)), 3, "\(file) \(tile)")
            }
        }
    }

    /// An inner JPEG tile is the file's own bytes behind its tables, not encoded again.
    func testInnerJPEGTilesAreTheFilesOwnBytes() throws {
        let file = try tiff("pages.tif", "--pyramid", "--compression", "jpeg", "--Q", "40")
        let stored = try XCTUnwrap(try PhotoRenderer.storedPyramid(.file(file), settings: settings))
        let level = try XCTUnwrap(stored.stored(2))
        XCTAssertTrue(stored.sendsBytes(of: level, TileCoordinate(z: 2, x: 1, y: 1)))
        let bytes = try XCTUnwrap(try PhotoRenderer.storedTile(source: .file(file), tile: TileCoordinate(z: 2, x: 1, y: 1), settings: settings))
        let whole = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
        // The entropy-coded data after the tile's start of scan is a run of the file itself.
        let scan = try XCTUnwrap(bytes.indices.dropLast().last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let body = Array(bytes[scan...])
        XCTAssertNotNil(whole.indices.first { whole[$0] == body[0] && Array(whole[$0..<min(whole.count, $0 + body.count)]) == body })
    }

    /// Edge tiles come cropped, as the pyramid's; levels the file rounds down (vips halves 345 to
    /// 172, the pyramid to 173) are made from the nearest larger level, at the pyramid's size.
    func testEdgeTilesAndLevelsTheFileLacks() throws {
        let photo = try fixtures.gradient("odd.png", width: 1000, height: 690)
        try fixtures.vips("tiffsave", photo, fixtures.path("odd.tif"), "--tile", "--tile-width", "256", "--tile-height", "256",
                          "--pyramid", "--compression", "jpeg")
        let stored = try XCTUnwrap(try PhotoRenderer.storedPyramid(.file(fixtures.path("odd.tif")), settings: settings))
        XCTAssertEqual(stored.pyramid.maxZoom, 2)
        XCTAssertNotNil(stored.stored(2))
        let edge = TileCoordinate(z: 2, x: 3, y: 2)
        XCTAssertFalse(stored.sendsBytes(of: stored.stored(2)!, edge))
        let bytes = try XCTUnwrap(try PhotoRenderer.storedTile(source: .file(fixtures.path("odd.tif")), tile: edge, settings: settings))
        let image = try decoded(bytes, "edge.jpg")
        XCTAssertEqual([image.width, image.height], [1000 - 768, 690 - 512])
        XCTAssertNil(stored.stored(0), "the file's 250×172 is not the pyramid's 250×173")
        XCTAssertEqual([stored.nearest(0).width, stored.nearest(0).height], [500, 345])
        for tile in [TileCoordinate(z: 0, x: 0, y: 0), TileCoordinate(z: 1, x: 1, y: 1)] {
            let bytes = try XCTUnwrap(try PhotoRenderer.storedTile(source: .file(fixtures.path("odd.tif")), tile: tile, settings: settings))
            let rect = stored.pyramid.rect(tile)!
            let image = try decoded(bytes, "level.jpg")
            XCTAssertEqual([image.width, image.height], [rect.width, rect.height], "\(tile)")
        }
    }

    func testStripsAndSingleTiledLevelsAreBuiltAsBefore() throws {
        let photo = try fixtures.gradient("photo.png", width: 600, height: 400)
        try fixtures.vips("tiffsave", photo, fixtures.path("strips.tif"))
        try fixtures.vips("tiffsave", photo, fixtures.path("tiled.tif"), "--tile")
        try fixtures.vips("tiffsave", photo, fixtures.path("small-tiles.tif"), "--tile", "--pyramid", "--tile-width", "128", "--tile-height", "128")
        for name in ["strips.tif", "tiled.tif", "small-tiles.tif"] {
            XCTAssertNil(try PhotoRenderer.storedPyramid(.file(fixtures.path(name)), settings: settings), name)
            let pyramid = try PhotoRenderer.buildPyramid(source: fixtures.path(name), into: fixtures.path("built-\(name)"), settings: settings)
            XCTAssertEqual(pyramid.maxZoom, 2)
            XCTAssertTrue(FileManager.default.fileExists(atPath: fixtures.path("built-\(name)/2/2_1.jpg")), name)
        }
    }

    /// The build of a stored pyramid writes its thumbnail and marker, no tile; the thumbnail and
    /// regions come from the file's levels.
    func testBuildKeepsOnlyTheThumbnail() throws {
        let file = try tiff("pages.tif", "--pyramid", "--compression", "jpeg")
        let directory = fixtures.path("pyramid")
        let pyramid = try PhotoRenderer.buildPyramid(source: file, into: directory, settings: settings)
        XCTAssertEqual([pyramid.width, pyramid.height], [1024, 768])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).sorted(), [PhotoRenderer.storedMarker, "thumbnail.jpg"])
        let thumbnail = try VipsImage.open(directory + "/thumbnail.jpg", access: .random)
        XCTAssertEqual([thumbnail.width, thumbnail.height], [256, 256])
        let region = RegionRendition(region: PixelRect(x: 256, y: 256, width: 512, height: 256), width: 128, height: 64)
        let cut = try decoded(try PhotoRenderer.renderRegion(source: file, region, settings: settings), "region.jpg")
        let expected = try decoded(try PhotoRenderer.renderRegion(source: fixtures.path("photo.png"), region, settings: settings), "expected.jpg")
        XCTAssertEqual([cut.width, cut.height], [128, 64])
        XCTAssertLessThan(try cut.meanAbsoluteDifference(to: expected), 3)
    }

    /// A TIFF whose pages loop, or whose levels lie, fails on its own with a clear reason.
    func testHostileDirectoriesFailThatPhotoOnly() throws {
        let file = try tiff("pages.tif", "--pyramid", "--compression", "jpeg")
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
        // The last page's "next directory" pointed back at the first: the pages loop.
        let first = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        var offset = first
        while true {
            let count = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            let nextAt = offset + 2 + count * 12
            let next = Int(bytes[nextAt]) | Int(bytes[nextAt + 1]) << 8 | Int(bytes[nextAt + 2]) << 16 | Int(bytes[nextAt + 3]) << 24
            if next == 0 {
                for i in 0..<4 { bytes[nextAt + i] = UInt8(first >> (8 * i) & 0xFF) }
                break
            }
            offset = next
        }
        try Data(bytes).write(to: URL(fileURLWithPath: fixtures.path("loop.tif")))
        XCTAssertThrowsError(try PhotoRenderer.storedPyramid(.file(fixtures.path("loop.tif")), settings: settings)) { error in
            guard case .corrupt(let why)? = error as? ImagingError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("loop"), why)
        }
        XCTAssertThrowsError(try PhotoRenderer.thumbnail(source: fixtures.path("loop.tif"), settings: settings))
        // The good file next to it is untouched.
        XCTAssertNotNil(try PhotoRenderer.storedPyramid(.file(file), settings: settings))
    }
}
