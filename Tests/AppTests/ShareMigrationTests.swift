import Access
import Foundation
import SQL
import SQLTesting
@testable import App
import XCTest

/// Links made when albums were folders: a database written by the access schema's first five
/// steps, with a link to album 2 (then the folder `trip`), opened by this build on each engine.
/// Step 6 makes it a folder link, and it shows what it showed.
final class ShareMigrationTests: XCTestCase {
    func testAnAlbumLinkMadeWhenAlbumsWereFoldersShowsTheSameFolderOnSQLite() throws {
        try checkOldLink(database: nil)
    }

    func testAnAlbumLinkMadeWhenAlbumsWereFoldersShowsTheSameFolderOnPostgres() throws {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        defer { try? cluster.dropDatabase(url) }
        try checkOldLink(database: url)
    }

    private func checkOldLink(database url: PostgresURL?) throws {
        let token = try AccessToken.make(), uploadToken = try AccessToken.make()
        let f = try AccessFixture { configuration in
            if let url { configuration.database = url.description }
            do {
                let old = try SQLDatabase(url.map { .postgres($0) } ?? .sqlite(path: configuration.data + "/comments.sqlite"))
                defer { old.close() }
                let steps = Array(AccessSchema.schema.migrations.prefix(5))
                XCTAssertEqual(steps.last?.name, "share uploads", "the schema as it was before folder links")
                try old.migrate(SQLSchema(name: "access", migrations: steps))
                try old.run("""
                    INSERT INTO shares (token, album_id, photo_id, created_by, created_at, expires_at, password_hash, download, comments, location, upload)
                    VALUES (\(token), 2, NULL, 1, 1, NULL, NULL, 0, 1, 0, 0), (\(uploadToken), 2, NULL, 1, 1, NULL, NULL, 0, 1, 0, 1)
                    """)
            } catch {
                XCTFail("the old database: \(error)")
            }
        }
        defer { f.close() }
        // Folders get their ids in name order: home 1, trip 2, as they did when the link was made.
        XCTAssertEqual(f.folders["trip"], 2)
        let share = try XCTUnwrap(try f.store.share(token: token))
        XCTAssertEqual(share.target, .folder(2))
        XCTAssertEqual(try f.store.share(token: uploadToken)?.upload, true, "a link that added photos still does")

        let page = f.request(.GET, "/s/\(token)/photos")
        XCTAssertEqual(page.status, .ok, page.text)
        let titles = (page.object["photos"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        XCTAssertEqual(Set(titles), ["a1", "a2"], "the folder's photos, as before")
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos/\(f.photos["a1"]!)").status, .ok)
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos/\(f.photos["b1"]!)").status, .notFound)
        let described = f.request(.GET, "/s/\(token)/share").object
        XCTAssertEqual((described["folder"] as? [String: Any])?["title"] as? String, "trip")
        XCTAssertTrue(described["album"] is NSNull, "no album: the link is the folder's")
        // The owner's list says so too.
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let listed = (f.request(.GET, "/shares", headers: ["Cookie": owner]).object["shares"] as? [[String: Any]] ?? [])
            .first { $0["token"] as? String == token }
        XCTAssertEqual(listed?["folder"] as? Int, 2)
        XCTAssertTrue(listed?["album"] is NSNull)
    }
}
