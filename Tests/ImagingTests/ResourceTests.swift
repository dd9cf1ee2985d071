import XCTest
@testable import Imaging

/// Tiles are rendered millions of times: nothing may stay behind after each one.
final class ResourceTests: XCTestCase {
    func testRenderingReleasesEveryImageAndFile() throws {
        let fixtures = try Fixtures()
        let settings = RenderSettings()
        let jpeg = try fixtures.gradient("photo.jpg", width: 1100, height: 900)
        try fixtures.vips("bandjoin_const", jpeg, fixtures.path("alpha.png"), "200")
        let sources = [jpeg, fixtures.path("alpha.png")]

        func renderRound() throws {
            for source in sources {
                for tile in [TileCoordinate(z: 0, x: 0, y: 0), TileCoordinate(z: 3, x: 4, y: 3), TileCoordinate(z: 2, x: 1, y: 0)] {
                    XCTAssertFalse(try PhotoRenderer.renderTile(source: source, tile: tile, settings: settings).isEmpty)
                }
                XCTAssertFalse(try PhotoRenderer.thumbnail(source: source, settings: settings).isEmpty)
            }
        }
        // A first round warms libvips' one-off allocations (thread pools, profiles).
        try renderRound()
        Vips.dropCache()
        let memory = Vips.trackedMemory, files = Vips.trackedFiles
        for _ in 0..<5 { try renderRound() }
        Vips.dropCache()
        XCTAssertEqual(Vips.trackedFiles, files, "files left open")
        XCTAssertLessThanOrEqual(Vips.trackedMemory, memory + 200_000, "pixel buffers left allocated")
    }
}
