import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import XCTest
@testable import App

/// The photo routes in-process through `router.respond`: over a real library of JPEGs drawn at
/// test time where pixels matter, over canned bytes (`CannedRendering`, no libvips) where they do not.
final class PhotoRoutesTests: XCTestCase {
    struct Fixture {
        let service: PhotoService
        let router: Router
        let photos: String
    }

    /// photo1 1500×700 (maxZoom 3), photo2 300×200 PNG, photo3 not an image; drawn and rendered
    /// by libvips, or canned when `canned` is given.
    func makeFixture(canned: CannedRendering? = nil) throws -> Fixture {
        let root = NSTemporaryDirectory() + "photo-routes-\(UUID().uuidString)"
        let photos = root + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        if canned != nil {
            CannedRendering.write(to: photos + "/photo1.jpg", width: 1500, height: 700)
            CannedRendering.write(to: photos + "/photo2.png", width: 300, height: 200)
        } else {
            try DemoImage.write(to: photos + "/photo1.jpg", width: 1500, height: 700, seed: 1)
            try DemoImage.write(to: photos + "/photo2.png", width: 300, height: 200, seed: 2)
        }
        FileManager.default.createFile(atPath: photos + "/photo3.jpg", contents: Data("just text".utf8))
        var configuration = Configuration()
        configuration.photos = photos
        configuration.data = root + "/data"
        configuration.rescanSeconds = 0
        try FileManager.default.createDirectory(atPath: configuration.data, withIntermediateDirectories: true)
        let service = try canned.map { try PhotoService(configuration: configuration, renderer: $0, logger: .disabled, metrics: MetricsRegistry()) }
            ?? PhotoService(configuration: configuration, logger: .disabled, metrics: MetricsRegistry())
        service.library.refresh()
        var router = Router()
        service.register(on: &router, commentCount: { $0 == 1 ? 2 : 0 })
        addTeardownBlock {
            // A build still writing into the folder must finish before the folder goes.
            service.stop()
            service.library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        return Fixture(service: service, router: router, photos: photos)
    }

    func get(_ router: Router, _ target: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        TestClient(inProcess: router).response(.GET, target, headers: headers)
    }

    func json(_ response: HTTPResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.bodyBytes ?? [])) as? [String: Any])
    }

    /// Width and height of a JPEG, read back with libvips.
    func imageSize(_ bytes: [UInt8]) throws -> PhotoSize {
        XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG")
        let path = NSTemporaryDirectory() + "tile-\(UUID().uuidString).jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try VipsPhotoRendering(settings: RenderSettings()).probe(.file(path))
    }

    func assertProblem(_ response: HTTPResponse, _ status: HTTPStatus, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, message, file: file, line: line)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json", message, file: file, line: line)
        let body = (try? JSONSerialization.jsonObject(with: Data(response.bodyBytes ?? []))) as? [String: Any]
        XCTAssertEqual(body?["status"] as? Int, status.rawValue, message, file: file, line: line)
    }

    func testListHasEveryPhotoInIdOrderWithTheDocumentedShape() throws {
        let f = try makeFixture()
        let response = get(f.router, "/photos")
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
        let photos = try XCTUnwrap(try json(response)["photos"] as? [[String: Any]])
        XCTAssertEqual(photos.map { $0["id"] as? Int }, [1, 2, 3])
        let first = photos[0]
        XCTAssertEqual(first["title"] as? String, "photo1")
        XCTAssertEqual(first["width"] as? Int, 1500)
        XCTAssertEqual(first["height"] as? Int, 700)
        XCTAssertEqual(first["tileSize"] as? Int, 256)
        XCTAssertEqual(first["maxZoom"] as? Int, 3)
        XCTAssertEqual(first["commentCount"] as? Int, 2)
        let version = try XCTUnwrap(first["version"] as? String)
        XCTAssertEqual(version.count, 12)
        XCTAssertTrue(["processing", "ready"].contains(first["status"] as? String))
        XCTAssertEqual(first["thumbnail"] as? String, "/photos/1/thumbnail.jpg?v=\(version)")
        XCTAssertEqual(first["tiles"] as? String, "/photos/1/tiles/{z}/{x}/{y}.jpg?v=\(version)")
        XCTAssertNil(first["error"])
        XCTAssertEqual(Set(first.keys), ["id", "title", "width", "height", "tileSize", "maxZoom", "version", "status",
                                         "commentCount", "date", "taken", "thumbnail", "tiles", "iiif", "dzi", "original", "details"])
        let details = try XCTUnwrap(first["details"] as? [String: Any])
        XCTAssertEqual(details["fileName"] as? String, "photo1.jpg")
        XCTAssertEqual(details["takenFrom"] as? String, "file", "a photo without EXIF is dated by its file")
        XCTAssertEqual(details["mediaType"] as? String, "image/jpeg")
        XCTAssertEqual(first["iiif"] as? String, "/iiif/3/1/info.json")
        XCTAssertEqual(first["dzi"] as? String, "/photos/1/image.dzi?v=\(version)")
        // Members come in the documented order (the record type's declaration order).
        let text = String(decoding: response.bodyBytes ?? [], as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#"{"photos":[{"id":1,"title":"photo1","width":1500,"height":700,"tileSize":256,"maxZoom":3,"version":""#), text)
        let record = String(text[..<(text.range(of: "},{")?.lowerBound ?? text.endIndex)])
        let order = ["id", "title", "width", "height", "tileSize", "maxZoom", "version", "status", "commentCount", "date", "taken",
                     "thumbnail", "tiles", "iiif", "dzi", "original", "details"].map { record.range(of: "\"\($0)\":")?.lowerBound }
        XCTAssertEqual(order.compactMap { $0 }.count, order.count, record)
        XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), record)
        XCTAssertTrue(text.hasSuffix(#"],"total":3,"next":null}"#), text)
    }

    func testOnePhotoAndEveryMalformedId() throws {
        let f = try makeFixture(canned: CannedRendering())
        let response = get(f.router, "/photos/2")
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(try json(response)["title"] as? String, "photo2")
        for id in ["0", "-1", "01", "1.5", "abc", "99999999999999999999", "4", "1e3", " 1", "+1"] {
            assertProblem(get(f.router, "/photos/\(id)"), .notFound, id)
            assertProblem(get(f.router, "/photos/\(id)/thumbnail.jpg"), .notFound, id)
            assertProblem(get(f.router, "/photos/\(id)/tiles/0/0/0.jpg"), .notFound, id)
        }
    }

    func testTilesOutsideThePyramidOrMalformedAre404() throws {
        let f = try makeFixture(canned: CannedRendering())
        XCTAssertEqual(get(f.router, "/photos/1/tiles/0/0/0.jpg").status, .ok)
        // Level 3 of 1500×700 is 6 × 3 tiles.
        XCTAssertEqual(get(f.router, "/photos/1/tiles/3/5/2.jpg").status, .ok)
        for path in ["4/0/0", "3/6/0", "3/0/3", "-1/0/0", "0/-1/0", "0/0/-1", "a/0/0", "0/b/0", "0/0/c", "01/0/0",
                     "0/0/99999999999999999999", "99999999999999999999/0/0", "1.0/0/0", "0/0/0.5", "0//0"] {
            assertProblem(get(f.router, "/photos/1/tiles/\(path).jpg"), .notFound, path)
        }
        XCTAssertEqual(get(f.router, "/photos/1/tiles/0/0/0.png").status, .notFound)
    }

    func testTilePixelSizesFollowTheGeometry() throws {
        let f = try makeFixture()
        let pyramid = TilePyramid(width: 1500, height: 700)
        for z in 0...pyramid.maxZoom {
            let grid = pyramid.grid(z)!
            for (x, y) in [(0, 0), (grid.columns - 1, grid.rows - 1)] {
                let tile = TileCoordinate(z: z, x: x, y: y)
                let response = get(f.router, "/photos/1/tiles/\(z)/\(x)/\(y).jpg")
                XCTAssertEqual(response.status, .ok, "\(tile)")
                XCTAssertEqual(response.headers["Content-Type"], "image/jpeg")
                let rect = pyramid.rect(tile)!
                XCTAssertEqual(try imageSize(response.bodyBytes ?? []), PhotoSize(width: rect.width, height: rect.height), "\(tile)")
            }
        }
        // After the pyramid is built the same answers come from disk.
        XCTAssertTrue(f.service.library.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(f.service.library.photo(1)?.status, .ready)
        f.service.library.cache.retainVersions([])
        let edge = get(f.router, "/photos/1/tiles/3/5/2.jpg")
        XCTAssertEqual(try imageSize(edge.bodyBytes ?? []), PhotoSize(width: 1500 - 5 * 256, height: 700 - 2 * 256))
    }

    func testThumbnailIsASquareJPEGOfThumbnailSize() throws {
        let f = try makeFixture()
        for id in [1, 2] {
            let response = get(f.router, "/photos/\(id)/thumbnail.jpg")
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(try imageSize(response.bodyBytes ?? []), PhotoSize(width: 256, height: 256))
        }
    }

    func testCurrentVersionIsImmutableAndAnythingElseIsShortLived() throws {
        let f = try makeFixture(canned: CannedRendering())
        let version = try XCTUnwrap(f.service.library.photo(1)).version
        for path in ["/photos/1/tiles/1/0/0.jpg", "/photos/1/thumbnail.jpg"] {
            XCTAssertEqual(get(f.router, "\(path)?v=\(version)").headers["Cache-Control"], "public, max-age=31536000, immutable")
            XCTAssertEqual(get(f.router, path).headers["Cache-Control"], "public, max-age=60")
            XCTAssertEqual(get(f.router, "\(path)?v=000000000000").headers["Cache-Control"], "public, max-age=60")
        }
        XCTAssertEqual(get(f.router, "/photos/1").headers["Cache-Control"], "no-cache")
    }

    func testACachedImageAnswersAsItsFirstRequestDid() throws {
        let f = try makeFixture(canned: CannedRendering())
        let version = try XCTUnwrap(f.service.library.photo(1)).version
        for path in ["/photos/1/tiles/3/1/1.jpg", "/photos/1/thumbnail.jpg"] {
            let first = get(f.router, "\(path)?v=\(version)")
            XCTAssertEqual(first.status, .ok)
            // Later requests are answered from memory, with the header fields kept in the cache entry.
            for (query, cacheControl) in [("?v=\(version)", "public, max-age=31536000, immutable"),
                                          ("?x=1&v=\(version)", "public, max-age=31536000, immutable"),
                                          ("", "public, max-age=60"),
                                          ("?v=\(version)0", "public, max-age=60"),
                                          ("?v=\(version)", "public, max-age=31536000, immutable")] {
                let again = get(f.router, path + query)
                XCTAssertEqual(again.status, .ok, path + query)
                XCTAssertEqual(again.bodyBytes, first.bodyBytes, path + query)
                XCTAssertEqual(again.headers["Content-Type"], "image/jpeg")
                XCTAssertEqual(again.headers["ETag"], first.headers["ETag"])
                XCTAssertEqual(again.headers["Cache-Control"], cacheControl, path + query)
            }
        }
        XCTAssertEqual(get(f.router, "/photos/1/tiles/3/9/9.jpg?v=\(version)").status, .notFound)
        XCTAssertEqual(get(f.router, "/photos/9/tiles/0/0/0.jpg?v=\(version)").status, .notFound)
        XCTAssertEqual(get(f.router, "/photos/01/tiles/0/0/0.jpg?v=\(version)").status, .notFound)
        XCTAssertEqual(get(f.router, "/photos/1/tiles/0/00/0.jpg?v=\(version)").status, .notFound)
    }

    func testEveryResourceHasAStrongETagAndAnswers304() throws {
        let f = try makeFixture(canned: CannedRendering())
        let version = try XCTUnwrap(f.service.library.photo(1)).version
        for path in ["/photos", "/photos/1", "/photos/1/thumbnail.jpg?v=\(version)", "/photos/1/tiles/2/1/0.jpg?v=\(version)"] {
            let first = get(f.router, path)
            let etag = try XCTUnwrap(first.headers["ETag"], path)
            XCTAssertTrue(etag.hasPrefix("\"") && etag.hasSuffix("\""), "strong: \(etag)")
            let again = get(f.router, path, headers: ["If-None-Match": etag])
            XCTAssertEqual(again.status, .notModified, path)
            XCTAssertEqual(again.bodyBytes ?? [], [], path)
            XCTAssertEqual(again.headers["ETag"], etag)
            XCTAssertEqual(get(f.router, path, headers: ["If-None-Match": "\"other\", \(etag)"]).status, .notModified)
            XCTAssertEqual(get(f.router, path, headers: ["If-None-Match": "\"other\""]).status, .ok, path)
        }
        XCTAssertNotEqual(get(f.router, "/photos/1/tiles/2/1/0.jpg").headers["ETag"], get(f.router, "/photos/1/tiles/2/0/0.jpg").headers["ETag"])
    }

    func testAChangedFileGetsANewVersionAndOldURLsAreNotImmutable() throws {
        let f = try makeFixture()
        let old = try XCTUnwrap(f.service.library.photo(1)).version
        let oldTile = get(f.router, "/photos/1/tiles/0/0/0.jpg?v=\(old)")
        XCTAssertEqual(oldTile.headers["Cache-Control"], "public, max-age=31536000, immutable")
        // Written aside and renamed in, as editors save, so no build reads half a file.
        try DemoImage.write(to: f.photos + "/.photo1.new.jpg", width: 1200, height: 900, seed: 7)
        XCTAssertEqual(rename(f.photos + "/.photo1.new.jpg", f.photos + "/photo1.jpg"), 0)
        f.service.library.refresh()
        let photo = try XCTUnwrap(f.service.library.photo(1))
        XCTAssertNotEqual(photo.version, old)
        XCTAssertEqual([photo.width, photo.height], [1200, 900])
        let stale = get(f.router, "/photos/1/tiles/0/0/0.jpg?v=\(old)")
        XCTAssertEqual(stale.status, .ok)
        XCTAssertEqual(stale.headers["Cache-Control"], "public, max-age=60")
        XCTAssertEqual(stale.headers["ETag"], "\"\(photo.version)-0-0-0\"")
        XCTAssertNotEqual(stale.bodyBytes, oldTile.bodyBytes)
        XCTAssertEqual(try imageSize(stale.bodyBytes ?? []), PhotoSize(width: 150, height: 113))
        let body = try json(get(f.router, "/photos/1"))
        XCTAssertEqual(body["version"] as? String, photo.version)
        XCTAssertEqual(body["tiles"] as? String, "/photos/1/tiles/{z}/{x}/{y}.jpg?v=\(photo.version)")
    }

    func testAFailedPhotoSaysWhyAndItsImagesAreProblems() throws {
        let f = try makeFixture(canned: CannedRendering())
        let response = get(f.router, "/photos/3")
        XCTAssertEqual(response.status, .ok)
        let body = try json(response)
        XCTAssertEqual(body["status"] as? String, "failed")
        let error = try XCTUnwrap(body["error"] as? String)
        XCTAssertTrue(error.contains("not an image"), error)
        XCTAssertEqual(body["width"] as? Int, 0)
        XCTAssertEqual(body["maxZoom"] as? Int, 0)
        for path in ["/photos/3/thumbnail.jpg", "/photos/3/tiles/0/0/0.jpg"] {
            let problem = get(f.router, path)
            assertProblem(problem, .notFound, path)
            let detail = (try? json(problem))?["detail"] as? String
            XCTAssertEqual(detail, error)
        }
        // The others keep working.
        XCTAssertEqual(get(f.router, "/photos/2/tiles/0/0/0.jpg").status, .ok)
    }

    /// The routes over an injected renderer: every image is the renderer's canned bytes, from
    /// photos that are text files, so no byte of any answer came from libvips.
    func testTheRoutesRunOnCannedBytesWithoutLibvips() throws {
        let renderer = CannedRendering()
        let f = try makeFixture(canned: renderer)
        let photo = try XCTUnwrap(f.service.library.photo(1))
        XCTAssertEqual([photo.width, photo.height], [1500, 700])
        XCTAssertEqual(try json(get(f.router, "/photos/1"))["maxZoom"] as? Int, 3)
        let tile = get(f.router, "/photos/1/tiles/3/5/2.jpg?v=\(photo.version)")
        XCTAssertEqual(tile.status, .ok)
        XCTAssertEqual(tile.bodyBytes, CannedRendering.bytes(TileCoordinate(z: 3, x: 5, y: 2), of: photo.sourcePath))
        XCTAssertEqual(tile.headers["ETag"], "\"\(photo.version)-3-5-2\"")
        // The second answer is the cached one, with the same bytes.
        XCTAssertEqual(get(f.router, "/photos/1/tiles/3/5/2.jpg?v=\(photo.version)").bodyBytes, tile.bodyBytes)
        XCTAssertEqual(get(f.router, "/photos/2/thumbnail.jpg").bodyBytes,
                       CannedRendering.bytes(nil, of: try XCTUnwrap(f.service.library.photo(2)).sourcePath))
        XCTAssertGreaterThan(renderer.renders, 0)
        XCTAssertEqual(try String(contentsOfFile: photo.sourcePath, encoding: .utf8), "canned 1500x700\n", "not an image libvips could read")
    }
}
