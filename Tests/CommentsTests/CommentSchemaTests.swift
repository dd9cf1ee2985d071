import Foundation
import SQL
import SQLTesting
import XCTest
@testable import Comments
import TestSupport

/// The comment tables on both engines: migrations, files from before the shared SQL layer,
/// reopening, and two stores (two replicas) on one database.
final class CommentSchemaTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("comments.sqlite").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func columns(_ db: SQLDatabase, _ table: String) throws -> [String] {
        let query: SQLQuery = db.engine == .sqlite
            ? "SELECT name FROM pragma_table_info(\(table)) ORDER BY cid"
            : "SELECT column_name FROM information_schema.columns WHERE table_name = \(table) ORDER BY ordinal_position"
        return try db.query(query).map { try $0.decode(0, as: String.self) }
    }

    func testAnEmptyDatabaseIsMigratedToTheLatestSchemaOnEitherEngine() throws {
        try SQLTestDatabase.forEachEngine { place in
            let store = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
            XCTAssertEqual(try store.schemaVersion, CommentSchema.latestVersion)
            XCTAssertEqual(CommentSchema.latestVersion, 5)
            store.close()

            let db = try place.open()
            defer { db.close() }
            XCTAssertEqual(try columns(db, "comments"), ["id", "photo_id", "author", "text", "created_at", "client", "verified"],
                           "\(place.engine)")
            XCTAssertEqual(try columns(db, "comment_deletions"), ["comment_id", "photo_id", "client", "deleted_at"])
            XCTAssertEqual(try columns(db, "comment_rate_buckets"), ["client", "tokens", "updated_at", "allowed"])
            if db.engine == .sqlite {
                XCTAssertEqual(try db.scalar("PRAGMA journal_mode", as: String.self), "wal", "WAL is a property of the file and persists")
            }
            let again = try db.migrate(CommentSchema.schema)
            XCTAssertEqual(again.applied, [], "a migrated database is left alone")
        }
    }

    func testAVersion1FileMadeByHandIsAdoptedAndMigratedWithItsDataIntact() throws {
        // The schema as version 1 shipped it, written out here rather than taken from the migration list,
        // so a later edit of migration 1 cannot make this test agree with itself.
        let v1 = try SQLDatabase(.sqlite(path: path))
        try v1.withConnection { try $0.execute("""
            CREATE TABLE comments (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                photo_id INTEGER NOT NULL,
                author TEXT NOT NULL,
                text TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX comments_by_photo ON comments (photo_id, id);
            INSERT INTO comments (photo_id, author, text, created_at) VALUES
                (3, 'Ana', 'Looks like a Pip', 1795948262),
                (3, 'Ben', 'More of a Pep', 1795948300),
                (4, 'Anonymous', 'Line one
            line two', 1795948400),
                (3, 'Cy', 'deleted before the upgrade', 1795948500);
            DELETE FROM comments WHERE id = 4;
            PRAGMA user_version = 1;
            """) }
        v1.close()

        let store = try SQLCommentStore(path: path)
        defer { store.close() }
        XCTAssertEqual(try store.schemaVersion, CommentSchema.latestVersion)
        XCTAssertEqual(try store.photoIdentities(), [], "no identities are known for comments written before they were kept")
        let photo3 = try store.list(photoID: 3, after: nil, limit: 50)
        XCTAssertEqual(photo3.map(\.id), [1, 2])
        XCTAssertEqual(photo3.map(\.author), ["Ana", "Ben"])
        XCTAssertEqual(photo3[0].text, "Looks like a Pip")
        XCTAssertEqual(photo3[0].createdAtText, "2026-11-29T10:31:02Z")
        XCTAssertEqual(photo3.map(\.verified), [false, false], "names typed before verification was kept are not verified")
        XCTAssertEqual(try store.comment(photoID: 4, id: 3)?.text, "Line one\nline two")
        XCTAssertEqual(store.count(photoID: 3), 2, "counts are read from the migrated file")
        XCTAssertEqual(store.count(photoID: 4), 1)

        let added = try store.add(photoID: 3, author: "Dee", text: "after the upgrade", client: "192.0.2.7")
        XCTAssertEqual(added.id, 5, "AUTOINCREMENT carries over: id 4 was used once and stays retired")
        XCTAssertTrue(try store.delete(photoID: 3, commentID: 1, client: "192.0.2.9"))

        let db = store.database
        XCTAssertEqual(try db.query("SELECT client FROM comments ORDER BY id").map { try $0.decode(0, as: String.self) },
                       ["", "", "192.0.2.7"], "old rows get the column's default, new ones the poster")
        XCTAssertEqual(try db.query("SELECT comment_id, photo_id, client FROM comment_deletions").map {
            "\(try $0.decode(0, as: Int.self)) \(try $0.decode(1, as: Int.self)) \(try $0.decode(2, as: String.self))"
        }, ["1 3 192.0.2.9"])
        let history = try db.query("SELECT version FROM schema_migrations WHERE schema_name = 'comments' ORDER BY version")
            .map { try $0.decode(0, as: Int.self) }
        XCTAssertEqual(history, [1, 2, 3, 4, 5], "step 1 adopted from PRAGMA user_version, the rest run")
    }

    func testAVersion3FileGainsOnlyTheNewSteps() throws {
        let v3 = try SQLDatabase(.sqlite(path: path))
        for migration in CommentSchema.schema.migrations.prefix(3) {
            try v3.withConnection { try $0.execute(migration.sql(for: SQLDialect(.sqlite))) }
        }
        try v3.run("INSERT INTO comments (photo_id, author, text, created_at, client) VALUES (1, 'a', 'old', 0, 'c')")
        try v3.withConnection { try $0.execute("PRAGMA user_version = 3") }
        v3.close()
        let store = try SQLCommentStore(path: path)
        defer { store.close() }
        XCTAssertEqual(try store.list(photoID: 1, after: nil, limit: 5).map(\.text), ["old"])
        XCTAssertEqual(try store.schemaVersion, CommentSchema.latestVersion)
    }

    /// Step 5 on a database that holds comments, on both engines: they stay, read as typed
    /// names (not verified), and new ones keep what they are told.
    func testAVersion4DatabaseGainsVerifiedAuthorsAndItsCommentsAreNotVerified() throws {
        try SQLTestDatabase.forEachEngine { place in
            let v4 = try place.open()
            let before = SQLSchema(name: CommentSchema.schema.name, migrations: Array(CommentSchema.schema.migrations.prefix(4)))
            try v4.migrate(before)
            try v4.run("INSERT INTO comments (photo_id, author, text, created_at, client) VALUES (1, 'ana', 'typed', 0, 'c')")
            v4.close()
            let store = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
            defer { store.close() }
            XCTAssertEqual(try store.schemaVersion, 5, place.name)
            let signedIn = try store.add(photoID: 1, author: "ana", text: "signed in", client: "c", verified: true)
            XCTAssertTrue(signedIn.verified, place.name)
            XCTAssertEqual(try store.list(photoID: 1, after: nil, limit: 5).map(\.verified), [false, true], place.name)
            XCTAssertEqual(try store.comment(photoID: 1, id: signedIn.id)?.verified, true, place.name)
        }
    }

    func testAFileFromANewerVersionIsRefusedUntouched() throws {
        let db = try SQLDatabase(.sqlite(path: path))
        try db.withConnection { try $0.execute("CREATE TABLE future (x); PRAGMA user_version = 99;") }
        db.close()
        XCTAssertThrowsError(try SQLCommentStore(path: path)) { error in
            XCTAssertEqual((error as? SQLError)?.kind, .schemaTooNew, "\(error)")
            XCTAssertTrue("\(error)".contains("version 99"), "\(error)")
        }
        let after = try SQLDatabase(.sqlite(path: path))
        defer { after.close() }
        XCTAssertEqual(try after.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = 'comments'", as: Int.self), 0)
    }

    func testCommentsSurviveClosingAndReopening() throws {
        try SQLTestDatabase.forEachEngine { place in
            var store: SQLCommentStore? = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
            let a = try store!.add(photoID: 1, author: "Ana", text: "kept", client: "c")
            store!.close()
            store = nil
            let reopened = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
            defer { reopened.close() }
            XCTAssertEqual(try reopened.list(photoID: 1, after: nil, limit: 10), [a], "\(place.engine)")
            XCTAssertEqual(reopened.count(photoID: 1), 1)
        }
    }

    func testTwoStoresOnOneDatabaseSeeEachOthersCommentsAndAgreeOnCounts() throws {
        try SQLTestDatabase.forEachEngine { place in
            let first = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
            let second = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
            defer { first.close(); second.close() }
            XCTAssertEqual(second.count(photoID: 1), 0)
            let a = try first.add(photoID: 1, author: "a", text: "from the first", client: "c")
            let b = try second.add(photoID: 1, author: "b", text: "from the second", client: "c")
            XCTAssertGreaterThan(b.id, a.id)
            XCTAssertEqual(try first.list(photoID: 1, after: nil, limit: 10), [a, b])
            if place.engine == .postgres {
                // Another process's commits are heard through the database's notifications.
                XCTAssertTrue(first.waitForDelivery())
                XCTAssertTrue(second.waitForDelivery())
                XCTAssertEqual(first.count(photoID: 1), 2, "the first store heard the second's comment")
                XCTAssertTrue(try second.delete(photoID: 1, commentID: a.id))
                eventually(timeout: 30) { first.count(photoID: 1) == 1 }
                XCTAssertEqual(first.count(photoID: 1), 1, "and its deletion")
            }
        }
    }

    func testLiveEventsCrossStoresOnPostgreSQLAndNothingIsMissedWhileTheListenerIsDown() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        let poster = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
        let listener = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
        defer { poster.close(); listener.close() }
        let heard = EventLog()
        listener.onChange { heard.append($0) }
        let first = try poster.add(photoID: 2, author: "a", text: "one", client: "c")
        XCTAssertTrue(heard.wait(count: 1), "the other store hears the comment")
        XCTAssertEqual(heard.events, [.added(first)])

        // The listening session is cut; comments posted before it reconnects arrive all the same, once each.
        // The listening store's session is up (it heard the first comment), so it is among those
        // cut; the poster's own listener may still be connecting on a busy machine.
        XCTAssertGreaterThanOrEqual(try place.cluster!.terminateSessions(database: place.name, application: "photoscroll-listener"), 1)
        var posted = [first]
        for i in 0..<5 { posted.append(try poster.add(photoID: 2, author: "a", text: "while away \(i)", client: "c")) }
        XCTAssertTrue(try poster.delete(photoID: 2, commentID: first.id))
        XCTAssertTrue(heard.wait(count: 7, timeout: 10), "\(heard.events)")
        XCTAssertEqual(heard.events.compactMap { if case .added(let c) = $0 { return c } else { return nil } }, posted,
                       "every comment once, in id order")
        XCTAssertTrue(heard.events.contains(.deleted(photoID: 2, commentID: first.id)))
        XCTAssertEqual(listener.count(photoID: 2), 5)
    }

    func testAnUnopenableFileIsAnErrorThatSaysWhy() throws {
        XCTAssertThrowsError(try SQLCommentStore(path: directory.appendingPathComponent("missing/dir/comments.sqlite").path)) { error in
            let sql = error as? SQLError
            XCTAssertEqual(sql?.kind, .connectionFailed, "SQLITE_CANTOPEN: \(error)")
            XCTAssertEqual(sql?.message.contains("unable to open"), true, "\(error)")
        }
    }
}
