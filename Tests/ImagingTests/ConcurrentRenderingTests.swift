import XCTest
@testable import Imaging

/// The library renders tiles from many threads at once.
final class ConcurrentRenderingTests: XCTestCase {
    func testTilesRenderedInParallelMatchTilesRenderedAlone() throws {
        let fixtures = try Fixtures()
        let settings = RenderSettings()
        let source = try fixtures.gradient("photo.jpg", width: 1300, height: 700)
        let pyramid = TilePyramid(width: 1300, height: 700)
        var tiles: [TileCoordinate] = []
        for z in 0...pyramid.maxZoom {
            let grid = pyramid.grid(z)!
            for x in 0..<grid.columns { for y in 0..<grid.rows { tiles.append(TileCoordinate(z: z, x: x, y: y)) } }
        }
        let alone = try tiles.map { try PhotoRenderer.renderTile(source: source, tile: $0, settings: settings) }

        let results = Results(count: tiles.count)
        DispatchQueue.concurrentPerform(iterations: tiles.count) { [tiles] index in
            results.set(index, Result { try PhotoRenderer.renderTile(source: source, tile: tiles[index], settings: settings) })
        }
        for (index, tile) in tiles.enumerated() {
            XCTAssertEqual(try results.get(index).get(), alone[index], "tile \(tile) differs when rendered in parallel")
        }
    }

    // @unchecked Sendable: `values` is guarded by `lock`.
    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result<[UInt8], Error>?]
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: Result<[UInt8], Error>) { lock.lock(); values[index] = value; lock.unlock() }
        func get(_ index: Int) -> Result<[UInt8], Error> { lock.lock(); defer { lock.unlock() }; return values[index]! }
    }
}
