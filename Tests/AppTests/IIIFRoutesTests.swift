import Foundation
import HTTP
import IIIF
@testable import Imaging
@testable import Library
import Observability
import XCTest
@testable import App

/// The IIIF image service, manifests and DeepZoom in-process, over a real library: photo1
/// 1500×700 JPEG (maxZoom 3), photo2 300×200 PNG, photo3 not an image.
final class IIIFRoutesTests: XCTestCase {
    struct Fixture {
        let service: PhotoService
        let router: Router
    }

    func makeFixture(_ change: (inout Configuration) -> Void = { _ in }) throws -> Fixture {
        let root = NSTemporaryDirectory() + "iiif-routes-\(UUID().uuidString)"
        let photos = root + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try DemoImage.write(to: photos + "/photo1.jpg", width: 1500, height: 700, seed: 1)
        try DemoImage.write(to: photos + "/photo2.png", width: 300, height: 200, seed: 2)
        FileManager.default.createFile(atPath: photos + "/photo3.jpg", contents: Data("just text".utf8))
        var configuration = Configuration()
        configuration.photos = photos
        configuration.data = root + "/data"
        configuration.rescanSeconds = 0
        change(&configuration)
        try FileManager.default.createDirectory(atPath: configuration.data, withIntermediateDirectories: true)
        let service = try PhotoService(configuration: configuration, logger: .disabled, metrics: MetricsRegistry())
        service.library.refresh()
        XCTAssertTrue(service.library.waitForIngest(timeoutSeconds: 120))
        var router = Router()
        service.register(on: &router, commentCount: { _ in 0 })
        addTeardownBlock {
            service.stop()
            service.library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        return Fixture(service: service, router: router)
    }

    func get(_ f: Fixture, _ target: String, _ headers: [(String, String)] = [], method: HTTPMethod = .GET) -> HTTPResponse {
        TestClient(inProcess: f.router).response(method, target, headers: HTTPHeaders([("Host", "photos.test:8080")] + headers))
    }

    func json(_ response: HTTPResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.bodyBytes ?? [])) as? [String: Any])
    }

    func size(_ bytes: [UInt8]) throws -> PhotoSize {
        let path = NSTemporaryDirectory() + "iiif-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try VipsPhotoRendering(settings: RenderSettings()).probe(.file(path))
    }

    func assertProblem(_ response: HTTPResponse, _ status: HTTPStatus, _ target: String, line: UInt = #line) {
        XCTAssertEqual(response.status, status, target, line: line)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json", target, line: line)
        XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*", target, line: line)
        let body = String(decoding: response.bodyBytes ?? [], as: UTF8.self)
        XCTAssertTrue(body.contains("\"status\":\(status.rawValue)") && body.contains("\"detail\":"), body, line: line)
    }

    func testInfoJSONDescribesThePyramidWithAbsoluteIds() throws {
        let f = try makeFixture()
        let response = get(f, "/iiif/3/1/info.json")
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
        XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*")
        XCTAssertEqual(response.headers["Link"], "<http://iiif.io/api/image/3/level2.json>;rel=\"profile\"")
        let info = try json(response)
        XCTAssertEqual(info["id"] as? String, "http://photos.test:8080/iiif/3/1")
        XCTAssertEqual(info["width"] as? Int, 1500)
        XCTAssertEqual(info["height"] as? Int, 700)
        XCTAssertEqual(info["maxArea"] as? Int, 50_000_000)
        let tiles = try XCTUnwrap((info["tiles"] as? [[String: Any]])?.first)
        XCTAssertEqual(tiles["width"] as? Int, 256)
        XCTAssertEqual(tiles["scaleFactors"] as? [Int], [1, 2, 4, 8], "one per pyramid level, maxZoom 3")
        let sizes = try XCTUnwrap(info["sizes"] as? [[String: Any]])
        XCTAssertEqual(sizes.map { [$0["width"] as? Int, $0["height"] as? Int] }, [[188, 88], [375, 175], [750, 350], [1500, 700]])

        let ld = get(f, "/iiif/3/1/info.json", [("Accept", "application/ld+json")])
        XCTAssertEqual(ld.headers["Content-Type"], "application/ld+json;profile=\"http://iiif.io/api/image/3/context.json\"")
        XCTAssertNotEqual(ld.headers["ETag"], response.headers["ETag"], "another representation, another ETag")
        let etag = try XCTUnwrap(response.headers["ETag"])
        XCTAssertEqual(get(f, "/iiif/3/1/info.json", [("If-None-Match", etag)]).status, .notModified)

        let redirect = get(f, "/iiif/3/1")
        XCTAssertEqual(redirect.status, .seeOther)
        XCTAssertEqual(redirect.headers["Location"], "http://photos.test:8080/iiif/3/1/info.json")

        let preflight = get(f, "/iiif/3/1/full/max/0/default.jpg", [("Origin", "http://viewer.test"), ("Access-Control-Request-Method", "GET")],
                            method: .OPTIONS)
        XCTAssertEqual(preflight.status, .noContent)
        XCTAssertEqual(preflight.headers["Access-Control-Allow-Origin"], "*")
        XCTAssertTrue(preflight.headers["Access-Control-Allow-Methods"]?.contains("GET") ?? false)

        for target in ["/iiif/3/9/info.json", "/iiif/3/abc/info.json", "/iiif/3/01/info.json", "/iiif/3/3/info.json", "/iiif/3/9"] {
            assertProblem(get(f, target), .notFound, target)
        }
        let badHost = TestClient(inProcess: f.router).response(.GET, "/iiif/3/1/info.json",
                                                               headers: HTTPHeaders([("Host", "evil\"><x y=\"")]))
        assertProblem(badHost, .badRequest, "a Host that is no host name")
    }

    func testAConfiguredPublicURLNamesTheService() throws {
        let f = try makeFixture { $0.publicURL = "https://photos.example.org"; $0.iiifMaxWidth = 1000 }
        let info = try json(get(f, "/iiif/3/1/info.json"))
        XCTAssertEqual(info["id"] as? String, "https://photos.example.org/iiif/3/1")
        XCTAssertEqual(info["maxWidth"] as? Int, 1000)
        XCTAssertEqual((info["sizes"] as? [[String: Any]])?.last?["width"] as? Int, 750, "the full size is over maxWidth")
        let image = get(f, "/iiif/3/1/full/max/0/default.jpg")
        XCTAssertEqual(try size(image.bodyBytes ?? []), PhotoSize(width: 1000, height: 467), "max fits maxWidth")
        XCTAssertTrue(image.headers["Link"]?.hasPrefix("<https://photos.example.org/iiif/3/1/full/max/0/default.jpg>;rel=\"canonical\"") ?? false)
    }

    /// What a client that follows info.json asks for: every tile at every scale factor, edge tiles
    /// included (the implementation notes' calculation), answered with the pyramid tile's bytes.
    func testEveryTileInfoJSONImpliesIsTheBuiltTileByteForByte() throws {
        let f = try makeFixture()
        let photo = try XCTUnwrap(f.service.library.photo(1))
        let pyramid = try XCTUnwrap(photo.pyramid(tileSize: 256))
        let (width, height, t) = (1500, 700, 256)
        var count = 0
        for s in [1, 2, 4, 8] {
            for n in 0..<((width + t * s - 1) / (t * s)) {
                for m in 0..<((height + t * s - 1) / (t * s)) {
                    let xr = n * t * s, yr = m * t * s
                    let wr = min(t * s, width - xr), hr = min(t * s, height - yr)
                    let ws = xr + t * s > width ? (width - xr + s - 1) / s : t
                    let hs = yr + t * s > height ? (height - yr + s - 1) / s : t
                    let region = xr == 0 && yr == 0 && wr == width && hr == height ? "full" : "\(xr),\(yr),\(wr),\(hr)"
                    let response = get(f, "/iiif/3/1/\(region)/\(ws),\(hs)/0/default.jpg")
                    XCTAssertEqual(response.status, .ok, region)
                    let tile = TileCoordinate(z: 3 - s.trailingZeroBitCount, x: n, y: m)
                    let built = try Data(contentsOf: URL(fileURLWithPath: f.service.library.builtPath(of: photo, tile: tile)))
                    XCTAssertEqual(response.bodyBytes, [UInt8](built), "\(region) is tile \(tile)")
                    XCTAssertEqual(response.headers["ETag"], TileKey(version: photo.version, tile: tile).entityTag)
                    XCTAssertEqual(get(f, "/photos/1/tiles/\(tile.z)/\(tile.x)/\(tile.y).jpg").bodyBytes, response.bodyBytes)
                    count += 1
                }
            }
        }
        XCTAssertEqual(count, pyramid.tileCount)
        // The same tile spelled `w,` and with quality color is still the tile.
        let tile = try XCTUnwrap(get(f, "/photos/1/tiles/3/1/0.jpg").bodyBytes)
        XCTAssertEqual(get(f, "/iiif/3/1/256,0,256,256/256,/0/color.jpg").bodyBytes, tile)
        XCTAssertEqual(get(f, "/iiif/3/1/256,0,256,256/max/0/default.jpg").bodyBytes, tile)
    }

    func testRenderedImagesHaveTheirSizeTypeAndHeaders() throws {
        let f = try makeFixture()
        let version = try XCTUnwrap(f.service.library.photo(1)).version
        let cases: [(String, String, PhotoSize)] = [
            ("full/max/0/default.jpg", "image/jpeg", PhotoSize(width: 1500, height: 700)),
            ("full/!400,400/0/default.png", "image/png", PhotoSize(width: 400, height: 187)),
            ("square/100,100/0/gray.jpg", "image/jpeg", PhotoSize(width: 100, height: 100)),
            ("pct:50,50,50,50/,100/90/bitonal.png", "image/png", PhotoSize(width: 100, height: 214)),
            ("1400,600,500,500/^200,/!180/color.webp", "image/webp", PhotoSize(width: 200, height: 200)),
            ("0,0,10,10/^300,150/0/default.gif", "image/gif", PhotoSize(width: 300, height: 150)),
            ("full/pct:10/270/default.tif", "image/tiff", PhotoSize(width: 70, height: 150)),
        ]
        for (path, type, expected) in cases {
            let response = get(f, "/iiif/3/1/\(path)")
            XCTAssertEqual(response.status, .ok, path)
            XCTAssertEqual(response.headers["Content-Type"], type, path)
            XCTAssertEqual(try size(response.bodyBytes ?? []), expected, path)
            XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*", path)
            XCTAssertEqual(response.headers["Cache-Control"], "public, max-age=60", path)
            XCTAssertTrue(response.headers["Link"]?.contains("<http://iiif.io/api/image/3/level2.json>;rel=\"profile\"") ?? false, path)
            let etag = try XCTUnwrap(response.headers["ETag"], path)
            XCTAssertTrue(etag.hasPrefix("\"\(version)-"), "the ETag carries the version: \(etag)")
            let again = get(f, "/iiif/3/1/\(path)", [("If-None-Match", etag)])
            XCTAssertEqual(again.status, .notModified, path)
            XCTAssertEqual(again.headers["ETag"], etag)
        }
        // The canonical form: region x,y,w,h clipped, size w,h, integer rotation.
        let clipped = get(f, "/iiif/3/1/1400,600,500,500/pct:50/90.0/default.jpg")
        XCTAssertEqual(clipped.headers["Link"]?.components(separatedBy: ";rel=").first,
                       "<http://photos.test:8080/iiif/3/1/1400,600,100,100/50,50/90/default.jpg>")
        XCTAssertEqual(get(f, "/iiif/3/1/full/max/0/default.jpg?v=\(version)").headers["Cache-Control"], "public, max-age=31536000, immutable")
        // Two spellings of one image are one rendition, with one ETag.
        XCTAssertEqual(get(f, "/iiif/3/1/full/750,/0/default.jpg").headers["ETag"], get(f, "/iiif/3/1/full/pct:50/0/color.jpg").headers["ETag"])
    }

    /// The pager's fitted view of a built photo, now answered in the images lane: the photo's
    /// pixels at the size asked, as a render from the photo itself makes them.
    func testTheFittedViewOfABuiltPhotoIsThePhotoShrunk() throws {
        let f = try makeFixture()
        XCTAssertEqual(f.service.library.photo(1)?.status, .ready)
        let response = get(f, "/iiif/3/1/full/!600,600/0/default.jpg")
        XCTAssertEqual(response.status, .ok)
        let folder = NSTemporaryDirectory() + "iiif-fitted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(response.bodyBytes ?? []).write(to: URL(fileURLWithPath: folder + "/view.jpg"))
        let view = try VipsImage.open(folder + "/view.jpg", access: .random)
        XCTAssertEqual([view.width, view.height], [600, 280])
        let source = try XCTUnwrap(f.service.library.photo(1)).sourcePath
        let fitted = RegionRendition(region: PixelRect(x: 0, y: 0, width: 1500, height: 700), width: 600, height: 280)
        try Data(try PhotoRenderer.renderRegion(source: source, fitted, settings: RenderSettings()))
            .write(to: URL(fileURLWithPath: folder + "/reference.jpg"))
        let reference = try VipsImage.open(folder + "/reference.jpg", access: .random)
        XCTAssertLessThan(try view.meanAbsoluteDifference(to: reference), 3, "the photo's pixels")
    }

    func testErrorsAreProblemsWithTheSpecificationsStatuses() throws {
        let f = try makeFixture()
        let bad = ["full/full/0/default.jpg", "full/max/0/default.jpeg", "full/max/45x/default.jpg", "0,0,0,10/max/0/default.jpg",
                   "2000,0,10,10/max/0/default.jpg", "full/1501,/0/default.jpg", "full/pct:101/0/default.jpg",
                   "full/!3000,3000/0/default.jpg", "full/max/0/sepia.jpg", "full/8000,8000/0/default.jpg",
                   "full/^10000,10000/0/default.jpg"]
        for path in bad { assertProblem(get(f, "/iiif/3/1/\(path)"), .badRequest, path) }
        assertProblem(get(f, "/iiif/3/1/full/max/0/default.jp2"), .notImplemented, "jp2")
        assertProblem(get(f, "/iiif/3/9/full/max/0/default.jpg"), .notFound, "unknown photo")
        assertProblem(get(f, "/iiif/3/3/full/max/0/default.jpg"), .notFound, "a file that is no photo")
        XCTAssertEqual(get(f, "/iiif/3/a/b/info.json").status, .notFound, "a slash in the identifier")
    }

    func testDeepZoomIsThePyramidShifted() throws {
        let f = try makeFixture()
        let photo = try XCTUnwrap(f.service.library.photo(1))
        let dzi = get(f, "/photos/1/image.dzi?v=\(photo.version)")
        XCTAssertEqual(dzi.status, .ok)
        XCTAssertEqual(dzi.headers["Content-Type"], "application/xml; charset=utf-8")
        XCTAssertEqual(dzi.headers["Cache-Control"], "public, max-age=31536000, immutable")
        XCTAssertEqual(dzi.headers["Access-Control-Allow-Origin"], "*")
        let xml = String(decoding: dzi.bodyBytes ?? [], as: UTF8.self)
        XCTAssertTrue(xml.contains("TileSize=\"256\"") && xml.contains("Overlap=\"0\"") && xml.contains("<Size Width=\"1500\" Height=\"700\"/>"), xml)
        // ceil(log2(1500)) = 11 DeepZoom levels above the 1×1 one; ours start at 11 − 3 = 8.
        let pyramid = try XCTUnwrap(photo.pyramid(tileSize: 256))
        XCTAssertEqual(pyramid.deepZoomShift, 8)
        for z in 0...3 {
            let grid = try XCTUnwrap(pyramid.grid(z))
            for x in 0..<grid.columns { for y in 0..<grid.rows {
                let ours = get(f, "/photos/1/tiles/\(z)/\(x)/\(y).jpg")
                let theirs = get(f, "/photos/1/image_files/\(z + 8)/\(x)_\(y).jpg")
                XCTAssertEqual(theirs.bodyBytes, ours.bodyBytes, "level \(z + 8) tile \(x)_\(y)")
                XCTAssertEqual(theirs.headers["Access-Control-Allow-Origin"], "*")
            } }
        }
        // Below our level 0 every level is one tile of ceil(W / 2^(11 − level)) pixels.
        for level in 0..<8 {
            let tile = get(f, "/photos/1/image_files/\(level)/0_0.jpg")
            XCTAssertEqual(tile.status, .ok, "level \(level)")
            let divisor = 1 << (11 - level)
            XCTAssertEqual(try size(tile.bodyBytes ?? []), PhotoSize(width: (1500 + divisor - 1) / divisor, height: (700 + divisor - 1) / divisor))
        }
        for target in ["/photos/1/image_files/12/0_0.jpg", "/photos/1/image_files/11/6_0.jpg", "/photos/1/image_files/3/1_0.jpg",
                       "/photos/1/image_files/11/0-0.jpg", "/photos/1/image_files/11/00_0.jpg", "/photos/3/image_files/0/0_0.jpg",
                       "/photos/3/image.dzi", "/photos/9/image.dzi"] {
            XCTAssertEqual(get(f, target).status, .notFound, target)
        }
    }

    func testManifestsPaintEveryReadyPhotoWithItsImageService() throws {
        let f = try makeFixture()
        let response = get(f, "/iiif/manifest.json", [("Accept", "application/ld+json")])
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.headers["Content-Type"], "application/ld+json;profile=\"http://iiif.io/api/presentation/3/context.json\"")
        XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*")
        let manifest = try json(response)
        XCTAssertEqual(manifest["id"] as? String, "http://photos.test:8080/iiif/manifest.json")
        let canvases = try XCTUnwrap(manifest["items"] as? [[String: Any]])
        XCTAssertEqual(canvases.compactMap { ($0["label"] as? [String: [String]])?["none"]?.first }, ["photo1", "photo2"],
                       "the file that is no photo has no canvas")
        let body = try XCTUnwrap(((((canvases[1]["items"] as? [[String: Any]])?.first?["items"]) as? [[String: Any]])?.first?["body"]) as? [String: Any])
        XCTAssertEqual(body["id"] as? String, "http://photos.test:8080/iiif/3/2/full/max/0/default.jpg")
        XCTAssertEqual(((body["service"] as? [[String: Any]])?.first?["id"]) as? String, "http://photos.test:8080/iiif/3/2")
        // The body's URL answers.
        XCTAssertEqual(try size(get(f, "/iiif/3/2/full/max/0/default.jpg").bodyBytes ?? []), PhotoSize(width: 300, height: 200))

        let one = try json(get(f, "/photos/2/manifest.json"))
        XCTAssertEqual(one["id"] as? String, "http://photos.test:8080/photos/2/manifest.json")
        XCTAssertEqual((one["items"] as? [Any])?.count, 1)
        XCTAssertEqual(get(f, "/photos/3/manifest.json").status, .notFound)
    }
}
