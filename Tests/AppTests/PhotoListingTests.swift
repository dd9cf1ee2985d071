@testable import App
import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import POSIX
import TestSupport
import XCTest

/// The paged list, the summary, a photo's neighbours and the live events, in-process over a
/// library of thousands of photos.
final class PhotoListingTests: XCTestCase {
    struct Fixture {
        let library: PhotoLibrary
        let router: Router
        let photos: String
        let events: PhotoLiveEvents
    }

    func makeFixture(count: Int) throws -> Fixture {
        let root = NSTemporaryDirectory() + "photo-listing-\(UUID().uuidString)"
        let photos = root + "/photos"
        for i in 1...count {
            let folder = photos + "/\(2000 + i / 1000)/\(String(format: "%02d", i % 12 + 1))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            ScratchFile.write("\(400 + i % 3 * 100)x300\n\(i)", to: folder + "/img\(i).jpg")
        }
        let library = try PhotoLibrary(
            configuration: LibraryConfiguration(photosDirectory: photos, dataDirectory: root + "/data", ingestConcurrency: 1,
                                                rescanSeconds: 0, watchesFolder: false),
            renderer: TextRenderer(), logger: .disabled, metrics: MetricsRegistry())
        library.refresh()
        let events = PhotoLiveEvents(library: library, tileSize: 256, commentCount: { $0 == 2 ? 5 : 0 }, metrics: MetricsRegistry(),
                                     batchSeconds: 0.05, maxRecords: 50)
        let routes = PhotoRoutes(library: library, tileSize: 256, commentCount: { $0 == 2 ? 5 : 0 }, logger: .disabled,
                                 summary: PhotoSummary(library: library), events: events, answers: TileAnswers(library: library))
        var router = Router()
        routes.register(on: &router)
        addTeardownBlock {
            events.closeAll()
            library.stop()
            library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        return Fixture(library: library, router: router, photos: photos, events: events)
    }

    func get(_ router: Router, _ target: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        TestClient(inProcess: router).response(.GET, target, headers: headers)
    }

    func object(_ response: HTTPResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.bodyBytes ?? [])) as? [String: Any])
    }

    func testPagesWalkTheWholeLibraryOnceInOrder() throws {
        let f = try makeFixture(count: 2_345)
        // In the order files were found (`?order=id`); the date order has tests of its own.
        let first = get(f.router, "/photos?order=id")
        XCTAssertEqual(first.status, .ok)
        let body = try object(first)
        XCTAssertEqual((body["photos"] as? [[String: Any]])?.count, 200, "200 photos unless asked otherwise")
        XCTAssertEqual(body["total"] as? Int, 2_345)
        XCTAssertEqual(body["next"] as? String, "/photos?after=200&limit=200&order=id")
        XCTAssertEqual(first.headers["Link"], "</photos?after=200&limit=200&order=id>; rel=\"next\"")

        var seen: [Int] = []
        var target: String? = "/photos?limit=1000&order=id"
        var pages = 0
        while let next = target {
            let page = try object(get(f.router, next))
            seen += (page["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            target = page["next"] as? String
            pages += 1
        }
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(seen, Array(1...2_345))

        // A cursor whose photo has gone still continues where it was.
        let gone = try XCTUnwrap(f.library.photo(500))
        try FileManager.default.removeItem(atPath: f.library.catalog.folder.absolute(gone.relativePath))
        f.library.refresh()
        let after = try object(get(f.router, "/photos?after=499&limit=3&order=id"))
        XCTAssertEqual((after["photos"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }, [501, 502, 503])
        XCTAssertEqual(after["total"] as? Int, 2_344)
        let last = try object(get(f.router, "/photos?after=2345&order=id"))
        XCTAssertEqual((last["photos"] as? [Any])?.count, 0)
        XCTAssertTrue(last["next"] is NSNull)
    }

    func testBadLimitsAndCursorsAreClearErrors() throws {
        let f = try makeFixture(count: 3)
        for query in ["limit=0", "limit=1001", "limit=abc", "limit=-1", "limit=", "after=x", "after=-3", "after=1.5"] {
            let response = get(f.router, "/photos?\(query)")
            XCTAssertEqual(response.status, .badRequest, query)
            XCTAssertEqual(response.headers["Content-Type"], "application/problem+json", query)
            let detail = try object(response)["detail"] as? String ?? ""
            XCTAssertTrue(detail.contains(query.hasPrefix("limit") ? "limit" : "after"), detail)
        }
        XCTAssertEqual((try object(get(f.router, "/photos?limit=1000"))["photos"] as? [Any])?.count, 3)
    }

    func testAPhotoKnowsItsPlace() throws {
        let f = try makeFixture(count: 5)
        let middle = try object(get(f.router, "/photos/3"))
        XCTAssertEqual(middle["position"] as? Int, 2)
        XCTAssertEqual(middle["previous"] as? Int, 2)
        XCTAssertEqual(middle["next"] as? Int, 4)
        XCTAssertNotNil(middle["date"] as? String)
        let first = try object(get(f.router, "/photos/1"))
        XCTAssertTrue(first["previous"] is NSNull)
        XCTAssertEqual(first["next"] as? Int, 2)
        XCTAssertTrue(try object(get(f.router, "/photos/5"))["next"] is NSNull)
        XCTAssertEqual(get(f.router, "/photos/6").status, .notFound)
        XCTAssertEqual(get(f.router, "/photos/summaryx").status, .notFound)
    }

    func testSummaryIsAFewBytesAPhotoAndAnswers304WhileNothingChanged() throws {
        let f = try makeFixture(count: 1_500)
        let response = get(f.router, "/photos/summary?order=id")
        XCTAssertEqual(response.status, .ok)
        let bytes = try XCTUnwrap(response.bodyBytes)
        XCTAssertLessThan(bytes.count, 1_500 * 14, "a few bytes a photo")
        let summary = try object(response)
        XCTAssertEqual(summary["total"] as? Int, 1_500)
        XCTAssertEqual(summary["idRuns"] as? [[Int]], [[1, 1_500]])
        let ratios = try XCTUnwrap(summary["ratios"] as? [Double])
        XCTAssertEqual(ratios.count, 1_500)
        let one = try XCTUnwrap(f.library.photo(1))
        XCTAssertEqual(ratios[0], Double(one.width) / Double(one.height), accuracy: 0.0005)
        XCTAssertEqual(Set(ratios), [1.333, 1.667, 2])
        let days = try XCTUnwrap(summary["days"] as? [Int])
        XCTAssertEqual(days[0], Int(Date().timeIntervalSince1970) / 86_400, accuracy: 1)

        let etag = try XCTUnwrap(response.headers["ETag"])
        XCTAssertEqual(get(f.router, "/photos/summary?order=id", headers: ["If-None-Match": etag]).status, .notModified)

        try FileManager.default.removeItem(atPath: f.library.catalog.folder.absolute(try XCTUnwrap(f.library.photo(10)).relativePath))
        f.library.refresh()
        let changed = get(f.router, "/photos/summary?order=id", headers: ["If-None-Match": etag])
        XCTAssertEqual(changed.status, .ok)
        XCTAssertEqual(try object(changed)["idRuns"] as? [[Int]], [[1, 9], [11, 1_490]])
    }

    func testEventsCarryAddedChangedAndRemovedPhotos() throws {
        let f = try makeFixture(count: 20)
        let response = get(f.router, "/photos/events")
        XCTAssertEqual(response.headers["Content-Type"], "text/event-stream")
        guard case .stream(let start) = response.body else { return XCTFail("not a stream") }
        let stream = RecordingStream()
        start(stream)
        XCTAssertTrue(stream.waitFor { $0.contains("event: hello\ndata: {\"total\":20}") })

        FileManager.default.createFile(atPath: f.photos + "/new.jpg", contents: Data("640x480\n".utf8))
        try FileManager.default.removeItem(atPath: f.library.catalog.folder.absolute(try XCTUnwrap(f.library.photo(3)).relativePath))
        f.library.refresh()
        XCTAssertTrue(stream.waitFor { $0.contains("event: photos") })
        let frame = try XCTUnwrap(stream.text.components(separatedBy: "\n\n").first { $0.hasPrefix("event: photos") })
        let data = try XCTUnwrap(frame.split(separator: "\n").first { $0.hasPrefix("data: ") }).dropFirst(6)
        let batch = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        XCTAssertEqual((batch["added"] as? [[String: Any]])?.map { $0["title"] as? String }, ["new"])
        XCTAssertEqual(batch["removed"] as? [Int], [3])
        XCTAssertEqual(batch["total"] as? Int, 20)

        // Builds turn photos ready: each is a change, in batches, never the whole list.
        f.library.waitForIngest(timeoutSeconds: 30)
        XCTAssertTrue(stream.waitFor { $0.contains("\"changed\":[{") })

        // A batch too large to be worth sending is a reset.
        for i in 0..<60 { ScratchFile.write("10x10\n", to: f.photos + "/more\(i).jpg") }
        f.library.refresh()
        XCTAssertTrue(stream.waitFor { $0.contains("event: reset\ndata: {\"total\":80}") })
        stream.hangUp()
        XCTAssertEqual(f.events.count, 0)
    }

    func testReadyzSaysDegradedWhileThePhotosFolderIsAway() throws {
        let f = try makeFixture(count: 30)
        var router = f.router
        let library = f.library
        OperationsRoutes.register(on: &router, metrics: MetricsRegistry(), isReady: { true },
                                  degradation: { library.health.summary })
        XCTAssertEqual(try object(get(router, "/readyz"))["status"] as? String, "ready")
        try FileManager.default.moveItem(atPath: f.photos, toPath: f.photos + ".away")
        library.refresh()
        let degraded = get(router, "/readyz")
        XCTAssertEqual(degraded.status, .ok, "what is there is still served")
        let body = try object(degraded)
        XCTAssertEqual(body["status"] as? String, "degraded")
        XCTAssertTrue((body["detail"] as? String ?? "").contains("The photos folder is missing; its 30 photos are kept"))
        XCTAssertEqual((try object(get(router, "/photos"))["total"] as? Int), 30)
        try FileManager.default.moveItem(atPath: f.photos + ".away", toPath: f.photos)
        library.refresh()
        XCTAssertEqual(try object(get(router, "/readyz"))["status"] as? String, "ready")
    }

    func testIngestUsesEveryCoreUnlessToldAndTheGraceIsConfigurable() throws {
        var configuration = Configuration()
        XCTAssertEqual(configuration.ingestConcurrency, 0)
        XCTAssertEqual(configuration.rescanSeconds, 3600)
        XCTAssertEqual(LibraryConfiguration(configuration).ingestConcurrency, System.coreCount)
        configuration.ingestConcurrency = 3
        configuration.missingGraceSeconds = 60
        XCTAssertEqual(LibraryConfiguration(configuration).ingestConcurrency, 3)
        XCTAssertEqual(LibraryConfiguration(configuration).missingGraceSeconds, 60)
        configuration.ingestConcurrency = 65
        XCTAssertThrowsError(try configuration.validate())
    }
}
