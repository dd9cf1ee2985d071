import Imaging
import Library
import XCTest
@testable import App

final class PhotoCachingTests: XCTestCase {
    func testTheVersionParameterIsFoundWhereverItIs() {
        XCTAssertTrue(PhotoCaching.carriesVersion("v=abc", "abc"))
        XCTAssertTrue(PhotoCaching.carriesVersion("x=1&v=abc", "abc"))
        XCTAssertTrue(PhotoCaching.carriesVersion("v=abc&x=1", "abc"))
        XCTAssertTrue(PhotoCaching.carriesVersion("v=%61bc", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("v=abcd", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("vv=abc", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("v=", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("v=old&v=abc", "abc"), "the first v counts, as HTTPRequest.query says")
    }

    func testImageETagsAreSpelledFromTheKey() {
        XCTAssertEqual(TileKey(version: "abc", tile: TileCoordinate(z: 3, x: 2, y: 1)).entityTag, "\"abc-3-2-1\"")
        XCTAssertEqual(TileKey(version: "abc", tile: nil).entityTag, "\"abc-thumbnail\"")
        let region = RegionRendition(region: PixelRect(x: 100, y: 50, width: 800, height: 400), width: 400, height: 200)
        let key = TileKey(version: "abc", rendition: region.name)
        XCTAssertEqual(key.entityTag, "\"abc-r\(ContentHash.hex(of: Array(region.name.utf8)))\"")
        XCTAssertFalse(key.entityTag.contains(","), "If-None-Match lists are split at commas")
    }

    func testEncodedAnswersAreKeptPerEntryAndDroppedAfterIt() throws {
        let cache = TileCache(capacityBytes: 100)
        let answers = TileAnswers(cache: cache)
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        cache.put(TileKey(version: "abc", tile: tile), [1, 2, 3])
        let image = try XCTUnwrap(cache.get(TileKey(version: "abc", tile: tile)))
        let first = answers.answers(for: image, tile: tile)
        guard case .attached(let attachment) = cache.lookup(TileKey(version: "abc", tile: tile)) else {
            return XCTFail("the answers are kept with the entry")
        }
        XCTAssertTrue(answers.kept(attachment) === first, "a hit builds nothing")
        XCTAssertEqual(first.plain.response.headers["ETag"], "\"abc-0-0-0\"")
        XCTAssertEqual(first.plain.response.headers["Cache-Control"], "public, max-age=31536000, immutable")
        XCTAssertEqual(first.plain.response.bodyBytes, [1, 2, 3])
        // Stored again: the new bytes get an answer of their own.
        cache.put(TileKey(version: "abc", tile: tile), [4, 5])
        let again = try XCTUnwrap(cache.get(TileKey(version: "abc", tile: tile)))
        XCTAssertEqual(answers.answers(for: again, tile: tile).plain.response.bodyBytes, [4, 5])
        XCTAssertEqual(answers.count, 1, "the first bytes' answer went with them")
        // Entries that are evicted or dropped take their answers with them.
        for n in 1...40 {
            let key = TileKey(version: "abc", tile: TileCoordinate(z: 0, x: n, y: 0))
            cache.put(key, [UInt8](repeating: 0, count: 10))
            _ = answers.answers(for: try XCTUnwrap(cache.get(key)), tile: key.tile)
            XCTAssertLessThanOrEqual(answers.count, cache.count)
        }
        XCTAssertEqual(answers.count, cache.count)
        cache.retainVersions([])
        XCTAssertEqual(answers.count, 0)
    }
}
