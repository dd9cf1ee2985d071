import Foundation
import XCTest
@testable import Imaging

/// Decoded pyramid tiles kept for regions, in a cache each test owns and hands to the renders: a
/// region from kept tiles is the region decoded afresh, to the byte; a tile written anew is decoded
/// anew, one that is gone fails the region; the budget holds; releasing memory lets every tile
/// the process-wide cache keeps go.
final class KeptRegionTilesTests: XCTestCase {
    var fixtures: Fixtures!
    var cache: RegionTileCache!
    let settings = RenderSettings(jpegQuality: 85)
    let region = RegionRendition(region: PixelRect(x: 130, y: 90, width: 800, height: 560), width: 560, height: 392)

    override func setUpWithError() throws {
        fixtures = try Fixtures()
        try Vips.ensureInitialized()
        cache = RegionTileCache(bytes: 0)
    }

    override func tearDown() {
        cache = nil
        fixtures = nil
    }

    func pyramid() throws -> (directory: String, pyramid: TilePyramid) {
        let source = try fixtures.gradient("photo.jpg", width: 1000, height: 700)
        let directory = fixtures.path("pyramid")
        return (directory, try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings))
    }

    func render(_ p: (directory: String, pyramid: TilePyramid), keeping bytes: Int) throws -> [UInt8] {
        cache.keep(bytes: bytes)
        let bytes = try PhotoRenderer.renderRegion(pyramid: p.pyramid, directory: p.directory, region, settings: settings,
                                                   keptTiles: cache)
        guard let bytes else { throw FixtureError(message: "a region of 12 tiles came back nil (to be rendered from the photo)") }
        return bytes
    }

    func tile(_ p: (directory: String, pyramid: TilePyramid), _ x: Int, _ y: Int) -> String {
        PhotoRenderer.tilePath(in: p.directory, TileCoordinate(z: p.pyramid.maxZoom, x: x, y: y))
    }

    func testARegionFromKeptTilesIsTheRegionDecodedAfresh() throws {
        let p = try pyramid()
        let fresh = try render(p, keeping: 0)
        XCTAssertEqual(cache.keptBytes, 0)
        let filling = try render(p, keeping: 32 << 20)
        // Twelve tiles of level 2 (1000 × 700 in 256-pixel tiles), whole, three bytes a pixel.
        XCTAssertEqual(cache.keptBytes, (3 * 256 + 232) * (2 * 256 + 188) * 3)
        let kept = try render(p, keeping: 32 << 20)
        XCTAssertEqual(filling, fresh)
        XCTAssertEqual(kept, fresh)
        cache.flush()
        XCTAssertEqual(cache.keptBytes, 0)
    }

    func testATileWrittenAnewIsDecodedAnewAndOneThatIsGoneFailsTheRegion() throws {
        let p = try pyramid()
        let before = try render(p, keeping: 32 << 20)
        // Tile (0, 0) becomes tile (1, 0): another picture of the same size, a new file.
        let replaced = tile(p, 0, 0)
        try FileManager.default.removeItem(atPath: replaced)
        try FileManager.default.copyItem(atPath: tile(p, 1, 0), toPath: replaced)
        let after = try render(p, keeping: 32 << 20)
        XCTAssertNotEqual(after, before)
        cache.flush()
        XCTAssertEqual(after, try render(p, keeping: 0), "the new tile, as a fresh decode reads it")
        _ = try render(p, keeping: 32 << 20)
        try FileManager.default.removeItem(atPath: tile(p, 3, 2))
        XCTAssertThrowsError(try render(p, keeping: 32 << 20), "a kept tile whose file is gone")
    }

    func testTheBudgetHoldsAndTheOldestGo() throws {
        let p = try pyramid()
        let fresh = try render(p, keeping: 0)
        let budget = 2 * 256 * 256 * 3 + 1000
        XCTAssertEqual(try render(p, keeping: budget), fresh)
        XCTAssertLessThanOrEqual(cache.keptBytes, budget)
        XCTAssertGreaterThan(cache.keptBytes, 0)
        XCTAssertEqual(try render(p, keeping: budget), fresh)
        cache.keep(bytes: 1000)
        XCTAssertEqual(cache.keptBytes, 0, "a smaller budget lets the oldest go at once")
    }

    func testReleasingMemoryLetsTheProcessWideCacheGo() throws {
        let p = try pyramid()
        Vips.regionTiles.keep(bytes: 32 << 20)
        _ = try PhotoRenderer.renderRegion(pyramid: p.pyramid, directory: p.directory, region, settings: settings)
        XCTAssertGreaterThan(Vips.regionTiles.keptBytes, 0, "a render with no cache named fills the process-wide one")
        Vips.releaseMemory()
        XCTAssertEqual(Vips.regionTiles.keptBytes, 0)
    }
}
