import Foundation
import Imaging
@testable import Library
import Observability
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

    func testEncodedAnswersAreKeptPerImageAndDroppedWithIt() throws {
        let root = NSTemporaryDirectory() + "photo-caching-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        let library = try PhotoLibrary(
            configuration: LibraryConfiguration(photosDirectory: root + "/photos", dataDirectory: root + "/data", tileCacheBytes: 100,
                                                ingestConcurrency: 1, rescanSeconds: 0, watchesFolder: false),
            renderer: TextRenderer(), logger: .disabled, metrics: MetricsRegistry())
        addTeardownBlock {
            library.stop()
            try? FileManager.default.removeItem(atPath: root)
        }
        let cache = library.cache
        let answers = TileAnswers(library: library)
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        cache.put(TileKey(version: "abc", tile: tile), [1, 2, 3])
        let stamp = try XCTUnwrap(library.heldImage(TileKey(version: "abc", tile: tile)))
        XCTAssertNil(answers.kept(stamp), "nothing made yet")
        let first = answers.answers(for: try XCTUnwrap(library.image(stamp)), tile: tile)
        XCTAssertTrue(answers.kept(stamp) === first, "a hit builds nothing")
        XCTAssertEqual(first.plain.response.headers["ETag"], "\"abc-0-0-0\"")
        XCTAssertEqual(first.plain.response.headers["Cache-Control"], "public, max-age=31536000, immutable")
        XCTAssertEqual(first.plain.response.bodyBytes, [1, 2, 3])
        // Stored again: the first bytes' answer goes with them, and the new bytes get their own.
        cache.put(TileKey(version: "abc", tile: tile), [4, 5])
        XCTAssertEqual(answers.count, 0, "the first bytes' answer went with them")
        XCTAssertNil(answers.kept(stamp))
        let again = try XCTUnwrap(library.heldImage(TileKey(version: "abc", tile: tile)))
        XCTAssertNil(answers.kept(again))
        XCTAssertEqual(answers.answers(for: try XCTUnwrap(library.image(again)), tile: tile).plain.response.bodyBytes, [4, 5])
        XCTAssertEqual(answers.count, 1)
        // An image gone between its lookup and its first answer: the answer is made, not kept.
        let image = try XCTUnwrap(library.image(again))
        cache.put(TileKey(version: "abc", tile: tile), [6])
        XCTAssertEqual(answers.answers(for: image, tile: tile).plain.response.bodyBytes, [4, 5])
        XCTAssertEqual(answers.count, 0)
        // Images that are evicted or dropped take their answers with them.
        for n in 1...40 {
            let key = TileKey(version: "abc", tile: TileCoordinate(z: 0, x: n, y: 0))
            cache.put(key, [UInt8](repeating: 0, count: 10))
            _ = answers.answers(for: try XCTUnwrap(library.image(try XCTUnwrap(library.heldImage(key)))), tile: key.tile)
            XCTAssertLessThanOrEqual(answers.count, cache.count)
        }
        XCTAssertEqual(answers.count, cache.count)
        cache.retainVersions([])
        XCTAssertEqual(answers.count, 0)
    }
}
