import TestSupport
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
        // Taken before anything is rendered: no libvips worker holds anything yet.
        let memory = Vips.trackedMemory, files = Vips.trackedFiles
        // The first round also warms libvips' one-off allocations (thread pools, profiles), none
        // of them pixel buffers.
        for _ in 0..<6 { try renderRound() }
        Vips.dropCache()
        // A libvips worker frees the buffers it keeps for itself only after it has told the
        // pipeline it is done, so just after a render returns they may still be counted, and on a
        // busy machine until that thread next runs (2.5 MB seen here for tens of milliseconds).
        // libvips says nothing when it happens: the counts are read until they are back, for at
        // most ten seconds; what is still held then is held for good.
        eventually { Vips.trackedFiles == files }
        XCTAssertEqual(Vips.trackedFiles, files, "files left open")
        eventually { Vips.trackedMemory <= memory + 200_000 }
        XCTAssertLessThanOrEqual(Vips.trackedMemory, memory + 200_000, "pixel buffers left allocated")
    }
}

/// On-demand tiles of large photos stream: memory does not grow with the photo.
final class StreamingTileTests: XCTestCase {
    func testBottomTileOfALargeJPEGDoesNotHoldThePhoto() throws {
        let fixtures = try Fixtures()
        let settings = RenderSettings()
        // 6000×4000: 72 MB decoded, far more than a streamed tile needs.
        let source = try fixtures.gradient("large.jpg", width: 6000, height: 4000)
        let pyramid = TilePyramid(width: 6000, height: 4000)
        let grid = pyramid.grid(pyramid.maxZoom)!
        let bottom = TileCoordinate(z: pyramid.maxZoom, x: grid.columns / 2, y: grid.rows - 1)
        _ = try PhotoRenderer.renderTile(source: source, tile: TileCoordinate(z: 0, x: 0, y: 0), settings: settings)

        resetPeakMemory()
        let before = memoryKilobytes()
        let tile = try fixtures.decode(try PhotoRenderer.renderTile(source: source, tile: bottom, settings: settings))
        let after = memoryKilobytes()
        let rect = pyramid.rect(bottom)!
        XCTAssertEqual([tile.width, tile.height], [rect.width, rect.height])
        // Bottom of the gradient: green near 255, red near the middle of its range.
        let red = rect.x * 255 / 6000
        try assertPixel(tile, 0, rect.height - 1, is: RGB(red: UInt8(red), green: 255, blue: UInt8((red + 255) / 4)), tolerance: 12)
        XCTAssertLessThan(after.peak - before.resident, 40_000, "peak RSS grew by \(after.peak - before.resident) kB for one tile")
    }
}
