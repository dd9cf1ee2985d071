import Comments
import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import XCTest
@testable import App

/// Comments stay with their photo when the catalog is lost: the server refuses to start with a
/// way out, `reattach-comments` moves them to the photos that hold their files now, and moved or
/// edited files are not mistaken for renumbering.
final class PhotoIdentityTests: XCTestCase {
    func row(_ id: Int, _ path: String, _ hash: String) -> PhotoFile {
        PhotoFile(id: id, path: path, contentHash: hash)
    }

    func testMovedAndEditedFilesAgreeAndRenumberedOnesDoNot() {
        let recorded = [PhotoIdentity(photoID: 1, path: "a.jpg", contentHash: "aaaa"),
                        PhotoIdentity(photoID: 2, path: "b.jpg", contentHash: "bbbb"),
                        PhotoIdentity(photoID: 3, path: "c.jpg", contentHash: "cccc"),
                        PhotoIdentity(photoID: 4, path: "d.jpg", contentHash: "dddd")]
        let catalog = [row(1, "trips/a.jpg", "aaaa"),   // moved: its id follows its content
                       row(2, "b.jpg", "b2b2"),         // edited in place: same path, new content
                       row(3, "a.jpg", "zzzz")]         // renumbered: another file under id 3
        let byID = Dictionary(uniqueKeysWithValues: (catalog + [row(5, "e.jpg", "eeee")]).map { ($0.id, $0) })
        let wrong = PhotoIdentityCheck.disagreements(recorded: recorded, row: { id in catalog.first { $0.id == id } })
        XCTAssertEqual(wrong.map(\.recorded.photoID), [3, 4])
        XCTAssertEqual(wrong.first?.catalog?.path, "a.jpg")
        XCTAssertNil(wrong.last?.catalog, "id 4 is not in the catalog at all")
        // Agreeing rows are brought up to date; a commented photo without a record gets one.
        let updates = PhotoIdentityCheck.updates(recorded: Array(recorded[0...1]), row: { byID[$0] }, commented: [1, 2, 5])
        XCTAssertEqual(updates, [PhotoIdentity(photoID: 1, path: "trips/a.jpg", contentHash: "aaaa"),
                                 PhotoIdentity(photoID: 2, path: "b.jpg", contentHash: "b2b2"),
                                 PhotoIdentity(photoID: 5, path: "e.jpg", contentHash: "eeee")])
    }

    struct Site {
        let root: String
        var configuration: Configuration
        var catalog: String { configuration.data + "/catalog.sqlite" }
    }

    func makeSite() throws -> Site {
        let root = NSTemporaryDirectory() + "identity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        for (index, name) in ["a", "b", "c"].enumerated() {
            try DemoImage.write(to: root + "/photos/\(name).jpg", width: 300 + index * 40, height: 200, seed: index + 1)
        }
        var configuration = Configuration()
        configuration.photos = root + "/photos"
        configuration.data = root + "/data"
        configuration.rescanSeconds = 0
        configuration.commentsPerMinute = 0
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        return Site(root: root, configuration: configuration)
    }

    /// Opens the application, scans, runs `body` with its router, and stops it.
    func withApplication(_ site: Site, _ body: (Application, Router) throws -> Void) throws {
        let application = try Application(configuration: site.configuration, logger: .disabled)
        defer {
            application.stop()
            application.photos.library.waitForIngest(timeoutSeconds: 30)
        }
        application.photos.library.refresh()
        try body(application, application.makeRouter())
    }

    func post(_ router: Router, photo: Int, _ text: String) -> HTTPResponse {
        TestClient(inProcess: router).response(.POST, "/photos/\(photo)/comments", headers: ["Content-Type": "application/json"],
                                               body: Array("{\"text\":\"\(text)\"}".utf8))
    }

    func texts(_ router: Router, photo: Int) -> [String] {
        let response = TestClient(inProcess: router).response(.GET, "/photos/\(photo)/comments")
        let object = (try? JSONSerialization.jsonObject(with: Data(response.bodyBytes ?? []))) as? [String: Any]
        return (object?["comments"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    func testALostCatalogStopsTheStartAndReattachingPutsTheCommentsBack() throws {
        let site = try makeSite()
        try withApplication(site) { application, router in
            XCTAssertEqual(application.photos.library.photo(3)?.relativePath, "c.jpg")
            XCTAssertEqual(post(router, photo: 3, "a comment on c").status, .created)
            XCTAssertEqual(post(router, photo: 1, "a comment on a").status, .created)
        }
        // The catalog is lost, and a new file sorts first: a fresh scan would number every photo anew.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: site.catalog + suffix) }
        try DemoImage.write(to: site.root + "/photos/0-new.jpg", width: 320, height: 240, seed: 9)

        XCTAssertThrowsError(try Application(configuration: site.configuration, logger: .disabled)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("photo 3 was c.jpg"), text)
            XCTAssertTrue(text.contains("reattach-comments"), text)
            XCTAssertTrue(text.contains("catalog.sqlite"), text)
        }
        XCTAssertEqual(try ReattachCommentsCommand.run(configuration: site.configuration, logger: .disabled), 0)
        try withApplication(site) { application, router in
            let library = application.photos.library
            let c = try XCTUnwrap(library.photos.first { $0.relativePath == "c.jpg" })
            let a = try XCTUnwrap(library.photos.first { $0.relativePath == "a.jpg" })
            XCTAssertNotEqual(c.id, 3, "the new catalog numbered c.jpg differently")
            XCTAssertEqual(texts(router, photo: c.id), ["a comment on c"])
            XCTAssertEqual(texts(router, photo: a.id), ["a comment on a"])
            let other = try XCTUnwrap(library.photos.first { $0.relativePath == "0-new.jpg" })
            XCTAssertEqual(texts(router, photo: other.id), [])
        }
    }

    func testAFileEditedInPlaceKeepsItsCommentsAndTheServerStarts() throws {
        let site = try makeSite()
        try withApplication(site) { _, router in
            XCTAssertEqual(post(router, photo: 2, "on b").status, .created)
        }
        try DemoImage.write(to: site.root + "/photos/b.jpg", width: 500, height: 300, seed: 7)
        try withApplication(site) { application, router in
            XCTAssertEqual(texts(router, photo: 2), ["on b"], "same path, new content: the same photo")
        }
        try withApplication(site) { application, router in
            let map = try XCTUnwrap(application.comments.store as? any PhotoIdentityMap)
            let recorded = try XCTUnwrap(try map.photoIdentities().first { $0.photoID == 2 })
            XCTAssertEqual(recorded.contentHash, application.photos.library.catalog.entry(2)?.contentHash)
            XCTAssertEqual(texts(router, photo: 2), ["on b"])
        }
    }

    func testEveryRecordedPhotoGetsARowOfItsOwnWhateverTheCatalogHolds() {
        let recorded = [PhotoIdentity(photoID: 1, path: "trips/a.jpg", contentHash: "same"),
                        PhotoIdentity(photoID: 2, path: "trips/b.jpg", contentHash: "same"),
                        PhotoIdentity(photoID: 3, path: "gone.jpg", contentHash: "same"),
                        PhotoIdentity(photoID: 4, path: "edited.jpg", contentHash: "old"),
                        PhotoIdentity(photoID: 5, path: "x.jpg", contentHash: "xxxx"),
                        PhotoIdentity(photoID: 6, path: "y.jpg", contentHash: "yyyy")]
        var removed = row(12, "old/y.jpg", "yyyy")
        removed.present = false
        let catalog = [row(7, "trips-2024/b.jpg", "same"), row(8, "trips-2024/a.jpg", "same"),  // identical bytes, folder renamed
                       row(9, "edited.jpg", "new"),                                            // edited in place
                       row(5, "y.jpg", "yyyy"), row(6, "x.jpg", "xxxx"),                        // swapped ids
                       removed]
        let plan = ReattachCommentsCommand.plan(recorded: recorded, catalog: catalog)
        XCTAssertEqual(plan.moves, [1: 8, 2: 7, 4: 9, 5: 6, 6: 5])
        XCTAssertEqual(plan.missing.map(\.photoID), [3], "more photos of those bytes than files left: one is not found")
        let ids = plan.identities.map(\.photoID)
        XCTAssertEqual(Set(ids).count, ids.count, "one identity per photo id: \(ids)")
        // An identity recorded by an older version (another digest) is found by that digest.
        let older = ReattachCommentsCommand.plan(recorded: [PhotoIdentity(photoID: 1, path: "moved.jpg", contentHash: "legacy-of-z")],
                                                 catalog: [row(4, "z.jpg", "zzzz")], legacyHash: { $0.path == "z.jpg" ? "legacy-of-z" : nil })
        XCTAssertEqual(older.moves, [1: 4])
    }

    func testReattachingPhotosWithIdenticalBytesEndsWellAndTheServerStarts() throws {
        let site = try makeSite()
        try FileManager.default.removeItem(atPath: site.root + "/photos/b.jpg")
        try FileManager.default.copyItem(atPath: site.root + "/photos/a.jpg", toPath: site.root + "/photos/b.jpg")
        try withApplication(site) { application, router in
            XCTAssertEqual(application.photos.library.photo(1)?.relativePath, "a.jpg")
            XCTAssertEqual(application.photos.library.photo(2)?.relativePath, "b.jpg")
            XCTAssertEqual(post(router, photo: 1, "on a").status, .created)
            XCTAssertEqual(post(router, photo: 2, "on b").status, .created)
            XCTAssertEqual(post(router, photo: 3, "on c").status, .created)
        }
        // The catalog is lost while the two identical photos move to a folder, and a new file sorts first.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: site.catalog + suffix) }
        try FileManager.default.createDirectory(atPath: site.root + "/photos/trips", withIntermediateDirectories: true)
        for name in ["a.jpg", "b.jpg"] {
            try FileManager.default.moveItem(atPath: site.root + "/photos/" + name, toPath: site.root + "/photos/trips/" + name)
        }
        try DemoImage.write(to: site.root + "/photos/0-new.jpg", width: 320, height: 240, seed: 9)
        XCTAssertThrowsError(try Application(configuration: site.configuration, logger: .disabled))

        XCTAssertEqual(try ReattachCommentsCommand.run(configuration: site.configuration, logger: .disabled), 0)
        try withApplication(site) { application, router in
            let library = application.photos.library
            for (path, text) in [("trips/a.jpg", "on a"), ("trips/b.jpg", "on b"), ("c.jpg", "on c")] {
                let photo = try XCTUnwrap(library.photos.first { $0.relativePath == path }, path)
                XCTAssertEqual(texts(router, photo: photo.id), [text], path)
            }
        }
        // Run again on a catalog that agrees: nothing moves, and the server still starts.
        XCTAssertEqual(try ReattachCommentsCommand.run(configuration: site.configuration, logger: .disabled), 0)
        try withApplication(site) { _, _ in }
    }
}
