import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import TestSupport
import XCTest
@testable import App

/// The date-taken order against `?order=id`, and albums (folders added, renamed, emptied),
/// over the routes in-process.
final class PhotoAlbumTests: XCTestCase {
    struct Fixture {
        let library: PhotoLibrary
        let router: Router
        let photos: String
        let root: String
    }

    func open(_ root: String, showLocation: Bool = false) throws -> Fixture {
        let library = try PhotoLibrary(
            configuration: LibraryConfiguration(photosDirectory: root + "/photos", dataDirectory: root + "/data", ingestConcurrency: 1,
                                                rescanSeconds: 0, watchesFolder: false, missingGraceSeconds: 0),
            renderer: DatedTextRenderer(), logger: .disabled, metrics: MetricsRegistry())
        library.refresh()
        let events = PhotoLiveEvents(library: library, tileSize: 256, commentCount: { _ in 0 }, metrics: MetricsRegistry())
        let routes = PhotoRoutes(library: library, tileSize: 256, commentCount: { _ in 0 }, logger: .disabled,
                                 summary: PhotoSummary(library: library), events: events,
                                 answers: TileAnswers(library: library), showLocation: showLocation)
        var router = Router()
        routes.register(on: &router)
        addTeardownBlock {
            events.closeAll()
            library.stop()
            library.waitForIngest(timeoutSeconds: 60)
        }
        return Fixture(library: library, router: router, photos: root + "/photos", root: root)
    }

    func newRoot() -> String {
        let root = NSTemporaryDirectory() + "photo-albums-\(UUID().uuidString)"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        return root
    }

    func write(_ root: String, _ relative: String, taken: String) throws {
        let path = root + "/photos/" + relative
        XCTAssertTrue(ScratchFile.write("400x300\n\(taken)", to: path))
    }

    func get(_ f: Fixture, _ target: String) throws -> [String: Any] {
        let response = TestClient(inProcess: f.router).response(.GET, target)
        XCTAssertEqual(response.status, .ok, target)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.bodyBytes ?? [])) as? [String: Any], target)
    }

    func status(_ f: Fixture, _ target: String) -> HTTPStatus { TestClient(inProcess: f.router).response(.GET, target).status }

    /// Every id of a list, page by page.
    func walk(_ f: Fixture, _ first: String) throws -> [Int] {
        var ids: [Int] = [], target: String? = first
        while let next = target {
            let page = try get(f, next)
            ids += (page["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            target = page["next"] as? String
        }
        return ids
    }

    func ids(ofSummary summary: [String: Any]) -> [Int] {
        (summary["idRuns"] as? [[Int]] ?? []).flatMap { run in (0..<run[1]).map { run[0] + $0 } }
    }

    func testTheLibraryIsInDateTakenOrderEverywhereAndOrderIdKeepsTheOldOne() throws {
        let root = newRoot()
        let count = 3_000
        var taken: [String: (Int, String)] = [:] // path → (day, RFC 3339)
        for i in 0..<count {
            // 1,000 distinct days for 3,000 photos (ties broken by id), scattered against name order.
            let day = (i * 7_919) % 1_000
            let stamp = String(format: "2020-01-01T%02d:00:00+02:00", day % 24)
            let date = Date(timeIntervalSince1970: 1_577_836_800 + Double(day) * 86_400)
            var text = ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            text += stamp.dropFirst(10)
            let path = "folder\(i % 30)/img\(i).jpg"
            try write(root, path, taken: text)
            taken[path] = (day, text)
        }
        let f = try open(root)
        let photos = f.library.photos
        func key(_ photo: Photo) -> (Int64, Int) { (photo.takenKey, photo.id) }
        let expected = photos.sorted { key($0) < key($1) }.map(\.id)
        XCTAssertEqual(photos.first.map { taken[$0.relativePath]!.1 }, photos.first?.taken)

        let walked = try walk(f, "/photos?limit=1000")
        XCTAssertEqual(walked.count, count)
        XCTAssertEqual(walked, expected, "oldest first, ties by id")
        XCTAssertNotEqual(walked, walked.sorted(), "not the id order")
        XCTAssertEqual(try walk(f, "/photos?limit=700&order=id"), Array(1...count))

        let summary = try get(f, "/photos/summary")
        XCTAssertEqual(ids(ofSummary: summary), expected)
        let days = try XCTUnwrap(summary["days"] as? [Int])
        XCTAssertEqual(days, days.sorted(), "days follow the order")
        XCTAssertEqual(days.first, 18_262, "2020-01-01 is day 18,262")
        XCTAssertEqual(ids(ofSummary: try get(f, "/photos/summary?order=id")), Array(1...count))

        for i in [0, 1, 1_234, count - 1] {
            let photo = try get(f, "/photos/\(walked[i])")
            XCTAssertEqual(photo["position"] as? Int, i)
            XCTAssertEqual(photo["previous"] as? Int, i > 0 ? walked[i - 1] : nil)
            XCTAssertEqual(photo["next"] as? Int, i + 1 < count ? walked[i + 1] : nil)
            let byID = try get(f, "/photos/\(walked[i])?order=id")
            XCTAssertEqual(byID["position"] as? Int, walked[i] - 1)
        }

        // A cursor whose photo has gone continues where that photo was, in date order.
        let gone = try XCTUnwrap(f.library.photo(walked[500]))
        try FileManager.default.removeItem(atPath: f.photos + "/" + gone.relativePath)
        f.library.refresh()
        let page = try get(f, "/photos?after=\(walked[500])&limit=3")
        XCTAssertEqual((page["photos"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }, Array(walked[501...503]))
        XCTAssertEqual(page["next"] as? String, "/photos?after=\(walked[503])&limit=3")

        for query in ["order=name", "order=", "order=ID"] {
            XCTAssertEqual(status(f, "/photos?\(query)"), .badRequest, query)
            XCTAssertEqual(status(f, "/photos/summary?\(query)"), .badRequest, query)
        }
    }

    func testAlbumsAreFoldersWhoseIdsSurviveARename() throws {
        let root = newRoot()
        try write(root, "loose.jpg", taken: "2024-01-01T00:00:00Z")
        for (i, day) in [5, 3, 9, 1, 7].enumerated() { try write(root, "Trips/t\(i).jpg", taken: "2023-04-0\(day)T12:00:00+01:00") }
        try write(root, "Family/2024/a.jpg", taken: "2024-06-02T10:00:00")
        try write(root, "Family/2024/b.jpg", taken: "2024-06-01T10:00:00")
        var f = try open(root)

        let albums = try XCTUnwrap(try get(f, "/folders")["folders"] as? [[String: Any]])
        XCTAssertEqual(albums.map { $0["path"] as? String }, ["Family/2024", "Trips"], "folders by name; the root is no album")
        XCTAssertEqual(albums.map { $0["title"] as? String }, ["2024", "Trips"])
        let trips = albums[1]
        let tripsID = try XCTUnwrap(trips["id"] as? Int)
        XCTAssertEqual(trips["count"] as? Int, 5)
        XCTAssertEqual(trips["from"] as? String, "2023-04-01T12:00:00+01:00")
        XCTAssertEqual(trips["to"] as? String, "2023-04-09T12:00:00+01:00")
        let newest = try XCTUnwrap(f.library.catalog.photo(relativePath: "Trips/t2.jpg"))
        XCTAssertEqual((trips["cover"] as? [String: Any])?["id"] as? Int, newest.id, "the newest photo is the cover")
        XCTAssertEqual(trips["link"] as? String, "/folders/\(tripsID)")

        // Paged like the library, in date order.
        let expected = ["t3", "t1", "t0", "t4", "t2"].map { f.library.catalog.photo(relativePath: "Trips/\($0).jpg")!.id }
        let first = try get(f, "/folders/\(tripsID)?limit=2")
        XCTAssertEqual(first["title"] as? String, "Trips")
        XCTAssertEqual(first["total"] as? Int, 5)
        XCTAssertEqual(first["next"] as? String, "/folders/\(tripsID)?after=\(expected[1])&limit=2")
        XCTAssertEqual(try walk(f, "/folders/\(tripsID)?limit=2"), expected)
        XCTAssertEqual(try walk(f, "/folders/\(tripsID)?order=id"), expected.sorted())
        XCTAssertEqual(ids(ofSummary: try get(f, "/folders/\(tripsID)/summary")), expected)
        XCTAssertEqual(status(f, "/folders/999"), .notFound)
        XCTAssertEqual(status(f, "/folders/abc"), .notFound)
        XCTAssertEqual(status(f, "/folders/999/summary"), .notFound)

        // Renamed with its photos: the same album. A new folder: a new one.
        try FileManager.default.moveItem(atPath: f.photos + "/Trips", toPath: f.photos + "/Holidays 2023")
        try write(root, "New/n.jpg", taken: "2025-01-01T00:00:00Z")
        f.library.refresh()
        let renamed = try XCTUnwrap(try get(f, "/folders")["folders"] as? [[String: Any]])
        XCTAssertEqual(renamed.map { $0["path"] as? String }, ["Family/2024", "Holidays 2023", "New"])
        XCTAssertEqual(renamed[1]["id"] as? Int, tripsID, "a renamed folder keeps its album id")
        let newID = try XCTUnwrap(renamed[2]["id"] as? Int)
        XCTAssertFalse([tripsID, renamed[0]["id"] as? Int].contains(newID))
        XCTAssertEqual(try walk(f, "/folders/\(tripsID)"), expected, "its photos kept their ids too")

        // Emptied: gone from the list.
        let familyID = try XCTUnwrap(renamed[0]["id"] as? Int)
        for name in ["a.jpg", "b.jpg"] { try FileManager.default.removeItem(atPath: f.photos + "/Family/2024/" + name) }
        f.library.refresh()
        XCTAssertEqual((try get(f, "/folders")["folders"] as? [[String: Any]])?.map { $0["id"] as? Int }, [tripsID, newID])
        XCTAssertEqual(status(f, "/folders/\(familyID)"), .notFound)

        // Renamed while the server is stopped: recognised at the start.
        f.library.stop()
        f.library.waitForIngest()
        try FileManager.default.moveItem(atPath: f.photos + "/New", toPath: f.photos + "/Newer")
        f = try open(root, showLocation: true)
        let restarted = try XCTUnwrap(try get(f, "/folders")["folders"] as? [[String: Any]])
        XCTAssertEqual(restarted.map { $0["path"] as? String }, ["Holidays 2023", "Newer"])
        XCTAssertEqual(restarted.map { $0["id"] as? Int }, [tripsID, newID])
        // The folder of a removed album comes back under its old id.
        try write(root, "Family/2024/c.jpg", taken: "2024-07-01T00:00:00Z")
        f.library.refresh()
        XCTAssertEqual((try get(f, "/folders")["folders"] as? [[String: Any]])?.first?["id"] as? Int, familyID)

        // Details in the records, the position only when the owner shares it.
        let record = try get(f, "/photos/\(newest.id)")
        let details = try XCTUnwrap(record["details"] as? [String: Any])
        XCTAssertEqual(details["fileName"] as? String, "t2.jpg")
        XCTAssertEqual(details["make"] as? String, "Maker")
        XCTAssertEqual((details["location"] as? [String: Double])?["longitude"], -2.25)
        XCTAssertEqual(record["taken"] as? String, "2023-04-09T12:00:00+01:00")
    }

    func testAnAlbumsCoverIsItsNewestPhotoThatCanBeShown() throws {
        let root = newRoot()
        try write(root, "Mixed/older.jpg", taken: "2023-04-01T12:00:00Z")
        try write(root, "Mixed/newer.jpg", taken: "2023-05-01T12:00:00Z")
        // Not a photo: it fails, and with no date of its own it is the newest (its file's time).
        try FileManager.default.createDirectory(atPath: root + "/photos/Mixed", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/photos/Mixed/broken.jpg", contents: Data("garbage".utf8)))
        let f = try open(root)
        f.library.waitForIngest(timeoutSeconds: 60)
        let broken = try XCTUnwrap(f.library.catalog.photo(relativePath: "Mixed/broken.jpg"))
        XCTAssertEqual(f.library.photo(broken.id)?.status, .failed)
        let album = try XCTUnwrap((try get(f, "/folders")["folders"] as? [[String: Any]])?.first)
        XCTAssertEqual(album["count"] as? Int, 3)
        let newer = try XCTUnwrap(f.library.catalog.photo(relativePath: "Mixed/newer.jpg"))
        XCTAssertEqual((album["cover"] as? [String: Any])?["id"] as? Int, newer.id, "a photo that failed has no thumbnail to show")
    }

    func testThePositionStaysOnTheServerUnlessShared() throws {
        let root = newRoot()
        try write(root, "a/one.jpg", taken: "2024-01-01T00:00:00Z")
        let f = try open(root)
        for target in ["/photos", "/photos/1", "/folders/1"] {
            let body = String(decoding: TestClient(inProcess: f.router).response(.GET, target).bodyBytes ?? [], as: UTF8.self)
            XCTAssertTrue(body.contains("\"make\":\"Maker\""), target)
            XCTAssertFalse(body.contains("location") || body.contains("latitude"), target)
        }
    }
}
