import Foundation
import HTTP
import Imaging
@testable import Library
import XCTest
@testable import App

/// Favourites, albums, moves, copies and the trash, each checked on disk and in the API.
final class ManageRoutesTests: XCTestCase {
    private func start() throws -> UploadTestServer {
        let server = try UploadTestServer { photos in
            try FileManager.default.createDirectory(atPath: photos + "/Trips", withIntermediateDirectories: true)
            try DemoImage.write(to: photos + "/Trips/beach.jpg", width: 200, height: 150, seed: 1)
            try DemoImage.write(to: photos + "/Trips/hill.jpg", width: 150, height: 200, seed: 2)
            try DemoImage.write(to: photos + "/home.jpg", width: 120, height: 90, seed: 3)
        }
        addTeardownBlock { server.stop() }
        return server
    }

    private func exists(_ server: UploadTestServer, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: server.photos + "/" + path)
    }

    func testFavouritesAreKeptInTheDatabase() throws {
        let server = try start()
        let beach = try XCTUnwrap(server.id("Trips/beach.jpg")), home = try XCTUnwrap(server.id("home.jpg"))
        XCTAssertEqual(try HTTPClient.request(.PUT, url: server.base + "/favourites/\(beach)").status, 204)
        XCTAssertEqual(try HTTPClient.request(.PUT, url: server.base + "/favourites/\(beach)").status, 204, "twice is once")
        XCTAssertEqual(try server.json(.GET, "/favourites").object["ids"] as? [Int], [beach])
        XCTAssertEqual(try server.json(.POST, "/favourites", ["add": [home], "remove": [beach]]).object["ids"] as? [Int], [home])
        XCTAssertEqual(try server.collection.favourites(), [home])
        XCTAssertEqual(try HTTPClient.request(.PUT, url: server.base + "/favourites/999").status, 404)
        XCTAssertEqual(try HTTPClient.request(.DELETE, url: server.base + "/favourites/\(home)").status, 204)
        XCTAssertEqual(try server.json(.GET, "/favourites").object["ids"] as? [Int], [])
        XCTAssertEqual(try server.json(.POST, "/favourites", ["add": "all"]).status, 400)
    }

    func testMovingKeepsIdsAndCopyingMakesNewPhotos() throws {
        let server = try start()
        let beach = try XCTUnwrap(server.id("Trips/beach.jpg")), home = try XCTUnwrap(server.id("home.jpg"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: server.photos + "/home.jpg"))
        let moved = try server.json(.POST, "/photos/move", ["ids": [beach, home], "folder": "Best/2024"])
        XCTAssertEqual(moved.status, 200, "\(moved.object)")
        let placed = try XCTUnwrap(moved.object["photos"] as? [[String: Any]])
        XCTAssertEqual(placed.map { $0["id"] as? Int }, [beach, home], "a moved photo keeps its id")
        XCTAssertEqual(placed.map { $0["path"] as? String }, ["Best/2024/beach.jpg", "Best/2024/home.jpg"])
        XCTAssertFalse(exists(server, "home.jpg"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: server.photos + "/Best/2024/home.jpg")), bytes)
        XCTAssertEqual(server.id("Best/2024/home.jpg"), home)
        XCTAssertEqual(try HTTPClient.get(url: server.base + "/photos/\(home)").status, 200)

        let copied = try server.json(.POST, "/photos/copy", ["ids": [home], "folder": "Best/2024"])
        let copy = try XCTUnwrap((copied.object["photos"] as? [[String: Any]])?.first)
        XCTAssertEqual(copy["path"] as? String, "Best/2024/home (2).jpg")
        XCTAssertNotEqual(copy["id"] as? Int, home)
        XCTAssertNotNil(copy["id"] as? Int)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: server.photos + "/Best/2024/home (2).jpg")), bytes)

        for bad: [String: Any] in [["ids": [home], "folder": "../outside"], ["ids": [home], "folder": ".hidden"], ["ids": [home]]] {
            XCTAssertEqual(try server.json(.POST, "/photos/move", bad).status, 400, "\(bad)")
        }
        XCTAssertEqual(try server.json(.POST, "/photos/move", ["ids": [9999], "folder": "x"]).status, 404)
        XCTAssertEqual(try HTTPClient.request(.POST, url: server.base + "/photos/move", headers: ["Content-Type": "text/plain"],
                                              body: Array("ids=1".utf8)).status, 415)
    }

    func testAlbumsAreFoldersMadeRenamedAndDeleted() throws {
        let server = try start()
        let beach = try XCTUnwrap(server.id("Trips/beach.jpg")), hill = try XCTUnwrap(server.id("Trips/hill.jpg"))
        XCTAssertEqual(try server.json(.POST, "/folders", ["path": "Rome"]).status, 201)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: server.photos + "/Rome", isDirectory: &isFolder) && isFolder.boolValue)
        XCTAssertEqual(try server.json(.POST, "/folders", ["path": "../Rome"]).status, 400)

        let trips = try XCTUnwrap(server.service.library.catalog.albums().first { $0.path == "Trips" })
        let renamed = try server.json(.PATCH, "/folders/\(trips.id)", ["title": "Travels"])
        XCTAssertEqual(renamed.status, 200, "\(renamed.object)")
        XCTAssertEqual(renamed.object["path"] as? String, "Travels")
        XCTAssertEqual(renamed.object["id"] as? Int, trips.id, "the folder keeps its id")
        XCTAssertTrue(exists(server, "Travels/beach.jpg"))
        XCTAssertFalse(exists(server, "Trips"))
        XCTAssertEqual(server.id("Travels/beach.jpg"), beach)
        XCTAssertEqual(try server.json(.PATCH, "/folders/\(trips.id)", ["title": "Rome"]).status, 409, "a folder of that name is there")
        XCTAssertEqual(try server.json(.PATCH, "/folders/\(trips.id)", ["title": "a/b"]).status, 400)

        let deleted = try server.json(.DELETE, "/folders/\(trips.id)")
        XCTAssertEqual(deleted.status, 200, "\(deleted.object)")
        XCTAssertEqual(Set((deleted.object["items"] as? [[String: Any]])?.compactMap { $0["photo"] as? Int } ?? []), [beach, hill])
        XCTAssertFalse(exists(server, "Travels"), "the emptied folder is gone")
        XCTAssertNil(server.service.library.photo(beach))
        // Undo brings the folder and its photos back, with their ids.
        let batch = try XCTUnwrap(deleted.object["batch"] as? String)
        XCTAssertEqual(try server.json(.POST, "/trash/restore", ["batch": batch]).status, 200)
        XCTAssertEqual(server.id("Travels/beach.jpg"), beach)
        XCTAssertEqual(server.id("Travels/hill.jpg"), hill)
    }

    func testTheTrashKeepsPhotosForTrashDaysWithRestoreUndoAndEmpty() throws {
        let server = try start()
        let beach = try XCTUnwrap(server.id("Trips/beach.jpg")), home = try XCTUnwrap(server.id("home.jpg"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: server.photos + "/home.jpg"))
        XCTAssertEqual(try HTTPClient.request(.PUT, url: server.base + "/favourites/\(home)").status, 204)
        let trashed = try server.json(.POST, "/photos/trash", ["ids": [home]])
        XCTAssertEqual(trashed.status, 200, "\(trashed.object)")
        let item = try XCTUnwrap((trashed.object["items"] as? [[String: Any]])?.first)
        let itemID = try XCTUnwrap(item["id"] as? String)
        XCTAssertFalse(exists(server, "home.jpg"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: server.data + "/trash/" + itemID)), bytes, "kept as it was, in the data folder")
        XCTAssertEqual(try HTTPClient.get(url: server.base + "/photos/\(home)").status, 404)
        XCTAssertEqual((try server.json(.GET, "/trash").object["items"] as? [[String: Any]])?.count, 1)

        // Undo: the same path, the same id, still a favourite.
        let restored = try server.json(.POST, "/trash/restore", ["batch": try XCTUnwrap(trashed.object["batch"] as? String)])
        XCTAssertEqual((restored.object["photos"] as? [[String: Any]])?.first?["id"] as? Int, home)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: server.photos + "/home.jpg")), bytes)
        XCTAssertEqual(try server.json(.GET, "/favourites").object["ids"] as? [Int], [home])
        XCTAssertEqual(try server.json(.POST, "/trash/restore", ["batch": try XCTUnwrap(trashed.object["batch"] as? String)]).status, 404,
                       "restored once")

        // Empty the trash, and the trash empties itself after trashDays.
        _ = try server.json(.POST, "/photos/trash", ["ids": [home]])
        XCTAssertEqual(try HTTPClient.request(.DELETE, url: server.base + "/trash").status, 204)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: server.data + "/trash"), [])
        _ = try server.json(.POST, "/photos/trash", ["ids": [beach]])
        server.advance(seconds: 29 * 86_400)
        XCTAssertEqual(server.manage.sweepTrash(), 0)
        server.advance(seconds: 86_400)
        XCTAssertEqual(server.manage.sweepTrash(), 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: server.data + "/trash"), [])
        XCTAssertFalse(exists(server, "Trips/beach.jpg"))
    }

    func testOnlyThisMachineMayManage() throws {
        let server = try start()
        var router = Router()
        server.manage.register(on: &router)
        let client = TestClient(inProcess: router)
        for (method, target) in [(HTTPMethod.POST, "/photos/trash"), (.PUT, "/favourites/1"), (.DELETE, "/trash"), (.GET, "/trash")] {
            let answer = client.response(method, target, headers: ["Host": "photos.example", "Content-Type": "application/json"],
                                         body: Array("{\"ids\":[1]}".utf8), remoteAddress: "198.51.100.7")
            XCTAssertEqual(answer.status, .forbidden, "\(method) \(target)")
        }
        let crossSite = try HTTPClient.request(.POST, url: server.base + "/photos/trash",
                                               headers: ["Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"],
                                               body: Array("{\"ids\":[1]}".utf8))
        XCTAssertEqual(crossSite.status, 403)
        XCTAssertTrue(exists(server, "home.jpg"))
    }
}
