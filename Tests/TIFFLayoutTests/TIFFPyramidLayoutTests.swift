import XCTest
import TIFFLayout

/// Reading a TIFF's directories as a pyramid: the shapes that are one, and hostile files that
/// must end in a clear error (never a hang, a trap or a read past the end).
final class TIFFPyramidLayoutTests: XCTestCase {
    private let pyramid = HandMadeTIFF(levels: [(100, 60), (50, 30), (25, 15)])

    func testPagesThatHalveAreAPyramid() throws {
        let bytes = TIFFMemoryBytes(pyramid.bytes)
        let layout = try XCTUnwrap(try TIFFPyramidLayout.read(bytes))
        XCTAssertFalse(layout.isBigTIFF)
        XCTAssertEqual(layout.levels.map { [$0.width, $0.height] }, [[100, 60], [50, 30], [25, 15]])
        XCTAssertEqual(layout.levels.map(\.place), [.page(0), .page(1), .page(2)])
        XCTAssertEqual([layout.levels[0].columns, layout.levels[0].rows], [7, 4])
        let tile = try layout.levels[0].tile(column: 6, row: 3, in: bytes)
        XCTAssertEqual(bytes.read(at: tile.offset, length: tile.length), Array("TILE".utf8))
        XCTAssertThrowsError(try layout.levels[0].tile(column: 7, row: 0, in: bytes))
    }

    func testOneLevelOrNotTiledIsNoPyramid() throws {
        XCTAssertNil(try TIFFPyramidLayout.read(TIFFMemoryBytes(HandMadeTIFF(levels: [(100, 60)]).bytes)))
        XCTAssertThrowsError(try TIFFPyramidLayout.read(TIFFMemoryBytes(Array("GIF89a and more bytes".utf8)))) {
            XCTAssertEqual($0 as? TIFFLayoutError, .notTIFF)
        }
    }

    func testLoopingDirectoriesAreAnError() {
        for next in [[2: 0], [1: 1], [2: 1]] {
            var looping = pyramid
            looping.next = next
            XCTAssertThrowsError(try TIFFPyramidLayout.read(TIFFMemoryBytes(looping.bytes)), "\(next)") { error in
                guard case .loop = error as? TIFFLayoutError else { return XCTFail("\(error)") }
            }
        }
    }

    func testTileOffsetsPastTheEndAreAnError() throws {
        var far = pyramid
        far.tileOffsetShift = 1 << 20
        let bytes = TIFFMemoryBytes(far.bytes)
        let layout = try XCTUnwrap(try TIFFPyramidLayout.read(bytes))
        XCTAssertThrowsError(try layout.levels[1].tile(column: 0, row: 0, in: bytes)) { error in
            guard case .pastTheEnd = error as? TIFFLayoutError else { return XCTFail("\(error)") }
        }
    }

    func testLevelsThatLieAboutTheirSizeAreAnError() {
        for levels in [[(100, 60), (200, 120)], [(100, 60), (50, 60)], [(100, 60), (50, 30), (50, 30)], [(100, 60), (10, 59)]] {
            XCTAssertThrowsError(try TIFFPyramidLayout.read(TIFFMemoryBytes(HandMadeTIFF(levels: levels).bytes)), "\(levels)") { error in
                guard case .inconsistent = error as? TIFFLayoutError else { return XCTFail("\(error)") }
            }
        }
        // Tile arrays that do not match the size claimed.
        var short = pyramid
        short.claimedTiles = 3
        XCTAssertThrowsError(try TIFFPyramidLayout.read(TIFFMemoryBytes(short.bytes))) { error in
            guard case .inconsistent = error as? TIFFLayoutError else { return XCTFail("\(error)") }
        }
    }

    /// Every prefix of a good file, and every single byte changed: an answer or an error, and any
    /// tile of any layout accepted lies within the bytes.
    func testEveryTruncationAndByteFlipEndsCleanly() {
        let whole = pyramid.bytes
        for length in 0..<whole.count {
            Array(whole.prefix(length)).withUnsafeBytes { TIFFLayoutFuzzing.check($0) }
        }
        for index in 0..<whole.count {
            var flipped = whole
            flipped[index] ^= 0xA5
            flipped.withUnsafeBytes { TIFFLayoutFuzzing.check($0) }
        }
    }

    func testJPEGTablesAreJoinedToATile() {
        let tables: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x02, 0xFF, 0xD9]
        let tile: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0xFF, 0xD9]
        XCTAssertEqual(JPEGTileJoin.join(tables: tables, tile: tile), [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x02, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0xFF, 0xD9])
        XCTAssertEqual(JPEGTileJoin.join(tables: nil, tile: tile), tile)
        XCTAssertNil(JPEGTileJoin.join(tables: [0x00, 0x01, 0x02, 0x03], tile: tile))
        XCTAssertNil(JPEGTileJoin.join(tables: tables, tile: [0x00, 0x00, 0x00, 0x00, 0x00]))
    }
}
