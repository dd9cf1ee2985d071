import TestSupport
import XCTest
@testable import Imaging

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
