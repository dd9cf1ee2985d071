import Foundation
import Synchronization
import XCTest
@testable import Imaging

/// Renders before the pyramid: what one render makes, and that its tiles are the pyramid's.
final class FirstLevelsTests: XCTestCase {
    private var fixtures: Fixtures!
    private let settings = RenderSettings()

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// Collects what a render hands over.
    private func render(_ unit: RenderUnit, _ source: String) throws -> [TileCoordinate?: [UInt8]] {
        let made = Mutex<[TileCoordinate?: [UInt8]]>([:])
        try PhotoRenderer.render(unit, source: source, settings: settings) { tile, bytes in
            made.withLock { XCTAssertNil($0.updateValue(bytes, forKey: tile), "\(String(describing: tile)) made twice") }
        }
        return made.withLock { $0 }
    }

    func testOneRenderMakesItsLevelOrItsRow() throws {
        // 4000×2500: maxZoom 4, native is 10 MP (a row at a time), level 3 is 2.5 MP (whole).
        let source = try fixtures.gradient("wide.jpg", width: 4000, height: 2500)
        let pyramid = TilePyramid(width: 4000, height: 2500)
        XCTAssertEqual(PhotoRenderer.viewLevel(of: pyramid), 4, "a 2880×1800 screen shows it at native size")
        XCTAssertEqual(try PhotoRenderer.renderUnit(source: source, tile: nil, settings: settings), .first)
        XCTAssertEqual(try PhotoRenderer.renderUnit(source: source, tile: TileCoordinate(z: 1, x: 1, y: 0), settings: settings), .first)
        XCTAssertEqual(try PhotoRenderer.renderUnit(source: source, tile: TileCoordinate(z: 3, x: 2, y: 1), settings: settings), .levels(top: 3))
        XCTAssertEqual(try PhotoRenderer.renderUnit(source: source, tile: TileCoordinate(z: 4, x: 7, y: 5), settings: settings), .row(z: 4, y: 5))

        let first = try render(.first, source)
        let thumbnail = try fixtures.decode(try XCTUnwrap(first[nil]))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [256, 256])
        XCTAssertEqual(Set(first.keys.compactMap { $0 }), Set((0...1).flatMap { z in tiles(pyramid, z) }))

        let level = try render(.levels(top: 3), source)
        XCTAssertEqual(Set(level.keys.compactMap { $0 }), Set((0...3).flatMap { z in tiles(pyramid, z) }))

        let row = try render(.row(z: 4, y: 5), source)
        XCTAssertEqual(Set(row.keys.compactMap { $0 }), Set(tiles(pyramid, 4).filter { $0.y == 5 }))
        for (tile, bytes) in row {
            let tile = try XCTUnwrap(tile)
            let image = try fixtures.decode(bytes)
            let rect = try XCTUnwrap(pyramid.rect(tile))
            XCTAssertEqual([image.width, image.height], [rect.width, rect.height], "\(tile)")
            if tile.x == 7 {
                let alone = try fixtures.decode(try PhotoRenderer.renderTile(source: source, tile: tile, settings: settings))
                XCTAssertLessThan(try image.meanAbsoluteDifference(to: alone), 1.5, "the same pixels as a tile rendered through libvips")
            }
        }
    }

    /// A build takes over what was rendered before it: those tiles are not encoded again.
    func testTheBuildTakesOverEarlierTiles() throws {
        let source = try fixtures.gradient("photo.jpg", width: 3000, height: 2000)
        let pyramid = TilePyramid(width: 3000, height: 2000)
        let early = fixtures.path("early")
        let first = try render(.first, source)
        for (tile, bytes) in first {
            let path = tile.map { PhotoRenderer.tilePath(in: early, $0) } ?? early + "/thumbnail.jpg"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let marked = PhotoRenderer.tilePath(in: early, TileCoordinate(z: 1, x: 0, y: 0))
        try Data("kept".utf8).write(to: URL(fileURLWithPath: marked))
        let directory = fixtures.path("pyramid")
        XCTAssertEqual(try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings, reusing: early), pyramid)
        XCTAssertEqual(try String(contentsOfFile: PhotoRenderer.tilePath(in: directory, TileCoordinate(z: 1, x: 0, y: 0)), encoding: .utf8),
                       "kept", "a complete level rendered before is not made again")
        XCTAssertEqual(FileManager.default.contents(atPath: directory + "/thumbnail.jpg"), Data(first[nil]!))
        XCTAssertFalse(FileManager.default.fileExists(atPath: early), "the early folder became the pyramid")
        for z in 2...pyramid.maxZoom {
            XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: directory + "/\(z)")),
                           Set(tiles(pyramid, z).map { "\($0.x)_\($0.y).jpg" }), "level \(z)")
        }
    }

    private func tiles(_ pyramid: TilePyramid, _ z: Int) -> [TileCoordinate] {
        let grid = pyramid.grid(z)!
        return (0..<grid.columns).flatMap { x in (0..<grid.rows).map { y in TileCoordinate(z: z, x: x, y: y) } }
    }
}
