import XCTest
@testable import Imaging

/// DESIGN.md's geometry, checked against sizes worked out by hand.
final class TilePyramidTests: XCTestCase {
    private struct Level {
        let z: Int, width: Int, height: Int, columns: Int, rows: Int, edgeWidth: Int, edgeHeight: Int
    }

    private func check(_ pyramid: TilePyramid, maxZoom: Int, shift: Int, tiles: Int, levels: [Level],
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(pyramid.maxZoom, maxZoom, "maxZoom", file: file, line: line)
        XCTAssertEqual(pyramid.deepZoomShift, shift, "deepZoomShift", file: file, line: line)
        XCTAssertEqual(pyramid.tileCount, tiles, "tileCount", file: file, line: line)
        for level in levels {
            let size = pyramid.levelSize(level.z)
            XCTAssertEqual(size?.width, level.width, "level \(level.z) width", file: file, line: line)
            XCTAssertEqual(size?.height, level.height, "level \(level.z) height", file: file, line: line)
            let grid = pyramid.grid(level.z)
            XCTAssertEqual(grid?.columns, level.columns, "level \(level.z) columns", file: file, line: line)
            XCTAssertEqual(grid?.rows, level.rows, "level \(level.z) rows", file: file, line: line)
            let edge = pyramid.rect(TileCoordinate(z: level.z, x: level.columns - 1, y: level.rows - 1))
            XCTAssertEqual(edge?.width, level.edgeWidth, "level \(level.z) edge width", file: file, line: line)
            XCTAssertEqual(edge?.height, level.edgeHeight, "level \(level.z) edge height", file: file, line: line)
            XCTAssertEqual(edge?.x, (level.columns - 1) * pyramid.tileSize, file: file, line: line)
            XCTAssertEqual(edge?.y, (level.rows - 1) * pyramid.tileSize, file: file, line: line)
        }
    }

    func testOnePixel() {
        check(TilePyramid(width: 1, height: 1), maxZoom: 0, shift: 0, tiles: 1,
              levels: [Level(z: 0, width: 1, height: 1, columns: 1, rows: 1, edgeWidth: 1, edgeHeight: 1)])
    }

    func testExactlyOneTile() {
        check(TilePyramid(width: 256, height: 256), maxZoom: 0, shift: 8, tiles: 1,
              levels: [Level(z: 0, width: 256, height: 256, columns: 1, rows: 1, edgeWidth: 256, edgeHeight: 256)])
    }

    func testOnePixelMoreThanATile() {
        check(TilePyramid(width: 257, height: 1), maxZoom: 1, shift: 8, tiles: 3, levels: [
            Level(z: 1, width: 257, height: 1, columns: 2, rows: 1, edgeWidth: 1, edgeHeight: 1),
            Level(z: 0, width: 129, height: 1, columns: 1, rows: 1, edgeWidth: 129, edgeHeight: 1),
        ])
    }

    func testSeventyFiveMegapixels() {
        check(TilePyramid(width: 10000, height: 7500), maxZoom: 6, shift: 8, tiles: 1609, levels: [
            Level(z: 6, width: 10000, height: 7500, columns: 40, rows: 30, edgeWidth: 16, edgeHeight: 76),
            Level(z: 5, width: 5000, height: 3750, columns: 20, rows: 15, edgeWidth: 136, edgeHeight: 166),
            Level(z: 4, width: 2500, height: 1875, columns: 10, rows: 8, edgeWidth: 196, edgeHeight: 83),
            Level(z: 3, width: 1250, height: 938, columns: 5, rows: 4, edgeWidth: 226, edgeHeight: 170),
            Level(z: 2, width: 625, height: 469, columns: 3, rows: 2, edgeWidth: 113, edgeHeight: 213),
            Level(z: 1, width: 313, height: 235, columns: 2, rows: 1, edgeWidth: 57, edgeHeight: 235),
            Level(z: 0, width: 157, height: 118, columns: 1, rows: 1, edgeWidth: 157, edgeHeight: 118),
        ])
    }

    func testPanorama() {
        check(TilePyramid(width: 30000, height: 2000), maxZoom: 7, shift: 8, tiles: 1270, levels: [
            Level(z: 7, width: 30000, height: 2000, columns: 118, rows: 8, edgeWidth: 48, edgeHeight: 208),
            Level(z: 6, width: 15000, height: 1000, columns: 59, rows: 4, edgeWidth: 152, edgeHeight: 232),
            Level(z: 5, width: 7500, height: 500, columns: 30, rows: 2, edgeWidth: 76, edgeHeight: 244),
            Level(z: 4, width: 3750, height: 250, columns: 15, rows: 1, edgeWidth: 166, edgeHeight: 250),
            Level(z: 3, width: 1875, height: 125, columns: 8, rows: 1, edgeWidth: 83, edgeHeight: 125),
            Level(z: 2, width: 938, height: 63, columns: 4, rows: 1, edgeWidth: 170, edgeHeight: 63),
            Level(z: 1, width: 469, height: 32, columns: 2, rows: 1, edgeWidth: 213, edgeHeight: 32),
            Level(z: 0, width: 235, height: 16, columns: 1, rows: 1, edgeWidth: 235, edgeHeight: 16),
        ])
    }

    func testTilesOutsideThePyramid() {
        let pyramid = TilePyramid(width: 1000, height: 700)
        XCTAssertNil(pyramid.levelSize(-1))
        XCTAssertNil(pyramid.levelSize(3))
        XCTAssertNil(pyramid.rect(TileCoordinate(z: 2, x: 4, y: 0)))
        XCTAssertNil(pyramid.rect(TileCoordinate(z: 2, x: 0, y: 3)))
        XCTAssertNil(pyramid.rect(TileCoordinate(z: 2, x: -1, y: 0)))
        XCTAssertNil(pyramid.rect(TileCoordinate(z: 0, x: 1, y: 0)))
        XCTAssertFalse(pyramid.contains(TileCoordinate(z: 3, x: 0, y: 0)))
        XCTAssertTrue(pyramid.contains(TileCoordinate(z: 2, x: 3, y: 2)))
    }

    /// For many sizes: the formula in floating point agrees, and each level's tiles cover it exactly.
    func testLevelsAgreeWithTheFormulaAndTileExactly() {
        var generator = SystemRandomNumberGenerator()
        let sizes = [(255, 1), (256, 257), (511, 512), (513, 513), (1, 100_000), (65536, 3)]
            + (0..<200).map { _ in (Int.random(in: 1...70_000, using: &generator), Int.random(in: 1...70_000, using: &generator)) }
        for (width, height) in sizes {
            for tileSize in [256, 510] {
                let pyramid = TilePyramid(width: width, height: height, tileSize: tileSize)
                let expected = max(0, Int(ceil(log2(Double(max(width, height)) / Double(tileSize)))))
                XCTAssertEqual(pyramid.maxZoom, expected, "\(width)×\(height)/\(tileSize)")
                XCTAssertEqual(pyramid.deepZoomShift, Int(ceil(log2(Double(max(width, height))))) - expected)
                let top = pyramid.levelSize(0)!
                XCTAssertLessThanOrEqual(max(top.width, top.height), tileSize, "level 0 fits one tile")
                for z in 0...pyramid.maxZoom {
                    let size = pyramid.levelSize(z)!
                    let scale = pow(2.0, Double(z - pyramid.maxZoom))
                    XCTAssertEqual(size.width, Int((Double(width) * scale).rounded(.up)), "\(width)×\(height) z\(z)")
                    XCTAssertEqual(size.height, Int((Double(height) * scale).rounded(.up)), "\(width)×\(height) z\(z)")
                    let grid = pyramid.grid(z)!
                    let rowWidth = (0..<grid.columns).reduce(0) { $0 + pyramid.rect(TileCoordinate(z: z, x: $1, y: 0))!.width }
                    let columnHeight = (0..<grid.rows).reduce(0) { $0 + pyramid.rect(TileCoordinate(z: z, x: 0, y: $1))!.height }
                    XCTAssertEqual(rowWidth, size.width)
                    XCTAssertEqual(columnHeight, size.height)
                    XCTAssertGreaterThan(pyramid.rect(TileCoordinate(z: z, x: grid.columns - 1, y: grid.rows - 1))!.width, 0)
                }
            }
        }
    }

    func testTilePath() {
        XCTAssertEqual(PhotoRenderer.tilePath(in: "/data/tiles/3-abc", TileCoordinate(z: 2, x: 1, y: 0)),
                       "/data/tiles/3-abc/2/1_0.jpg")
    }
}
