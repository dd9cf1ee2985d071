import Foundation
import XCTest
@testable import Comments

/// The SQLite file: schema migrations, reopening, and the settings that make it durable.
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

    private func columns(_ db: SQLiteConnection, _ table: String) throws -> [String] {
        var names: [String] = []
        try db.query("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid") { names.append($0.text(0)) }
        return names
    }

    func testAnEmptyFileIsMigratedToTheLatestSchemaInWALMode() throws {
        let store = try SQLiteCommentStore(path: path)
        XCTAssertEqual(try store.schemaVersion, CommentSchema.latestVersion)
        XCTAssertEqual(CommentSchema.latestVersion, 3)
        store.close()

        let db = try SQLiteConnection(path: path, create: false)
        defer { db.close() }
        XCTAssertEqual(try columns(db, "comments"), ["id", "photo_id", "author", "text", "created_at", "client"])
        XCTAssertEqual(try columns(db, "comment_deletions"), ["comment_id", "photo_id", "client", "deleted_at"])
        var mode = ""
        try db.query("PRAGMA journal_mode") { mode = $0.text(0) }
        XCTAssertEqual(mode, "wal", "WAL is a property of the file and persists")
    }

    func testAVersion1FileMadeByHandIsMigratedWithItsDataIntact() throws {
        // The schema as version 1 shipped it, written out here rather than taken from the migration list,
        // so a later edit of migration 1 cannot make this test agree with itself.
        let v1 = try SQLiteConnection(path: path)
        try v1.execute("""
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
            """)
        v1.close()

        let store = try SQLiteCommentStore(path: path)
        defer { store.close() }
        XCTAssertEqual(try store.schemaVersion, CommentSchema.latestVersion)
        XCTAssertEqual(try store.photoIdentities(), [], "no identities are known for comments written before they were kept")
        let photo3 = try store.list(photoID: 3, after: nil, limit: 50)
        XCTAssertEqual(photo3.map(\.id), [1, 2])
        XCTAssertEqual(photo3.map(\.author), ["Ana", "Ben"])
        XCTAssertEqual(photo3[0].text, "Looks like a Pip")
        XCTAssertEqual(photo3[0].createdAtText, "2026-11-29T10:31:02Z")
        XCTAssertEqual(try store.comment(photoID: 4, id: 3)?.text, "Line one\nline two")
        XCTAssertEqual(store.count(photoID: 3), 2, "counts are loaded from the migrated file")
        XCTAssertEqual(store.count(photoID: 4), 1)

        let added = try store.add(photoID: 3, author: "Dee", text: "after the upgrade", client: "192.0.2.7")
        XCTAssertEqual(added.id, 5, "AUTOINCREMENT carries over: id 4 was used once and stays retired")
        XCTAssertTrue(try store.delete(photoID: 3, commentID: 1, client: "192.0.2.9"))

        let db = try SQLiteConnection(path: path, create: false)
        defer { db.close() }
        var clients: [String] = []
        try db.query("SELECT client FROM comments ORDER BY id") { clients.append($0.text(0)) }
        XCTAssertEqual(clients, ["", "", "192.0.2.7"], "old rows get the column's default, new ones the poster")
        var audit: [String] = []
        try db.query("SELECT comment_id, photo_id, client FROM comment_deletions") { audit.append("\($0.int(0)) \($0.int(1)) \($0.text(2))") }
        XCTAssertEqual(audit, ["1 3 192.0.2.9"])
    }

    func testMigrationStopsAtTheRequestedVersionAndResumesLater() throws {
        let db = try SQLiteConnection(path: path)
        XCTAssertEqual(try CommentSchema.migrate(db, upTo: 1).to, 1)
        XCTAssertFalse(try columns(db, "comments").contains("client"))
        let second = try CommentSchema.migrate(db)
        XCTAssertEqual(second.from, 1)
        XCTAssertEqual(second.to, CommentSchema.latestVersion)
        XCTAssertTrue(try columns(db, "photo_identities").contains("content_hash"))
        let again = try CommentSchema.migrate(db)
        XCTAssertEqual(again.from, CommentSchema.latestVersion, "a migrated file is left alone")
        XCTAssertEqual(again.to, CommentSchema.latestVersion)
        db.close()
    }

    func testAFileFromANewerVersionIsRefusedUntouched() throws {
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE future (x); PRAGMA user_version = 99;")
        db.close()
        XCTAssertThrowsError(try SQLiteCommentStore(path: path)) { error in
            XCTAssertEqual(error as? CommentStoreError, .schemaTooNew(found: 99, known: CommentSchema.latestVersion))
        }
    }

    func testCommentsSurviveClosingAndReopening() throws {
        var store: SQLiteCommentStore? = try SQLiteCommentStore(path: path)
        let a = try store!.add(photoID: 1, author: "Ana", text: "kept", client: "c")
        store!.close()
        store = nil
        let reopened = try SQLiteCommentStore(path: path)
        defer { reopened.close() }
        XCTAssertEqual(try reopened.list(photoID: 1, after: nil, limit: 10), [a])
        XCTAssertEqual(reopened.count(photoID: 1), 1)
    }

    func testTwoStoresOnOneFileSeeEachOthersComments() throws {
        let first = try SQLiteCommentStore(path: path)
        let second = try SQLiteCommentStore(path: path)
        defer { first.close(); second.close() }
        let a = try first.add(photoID: 1, author: "a", text: "from the first", client: "c")
        let b = try second.add(photoID: 1, author: "b", text: "from the second", client: "c")
        XCTAssertGreaterThan(b.id, a.id)
        XCTAssertEqual(try first.list(photoID: 1, after: nil, limit: 10), [a, b])
    }

    func testSQLiteErrorsCarrySQLitesMessage() throws {
        XCTAssertThrowsError(try SQLiteCommentStore(path: directory.appendingPathComponent("missing/dir/comments.sqlite").path)) { error in
            let sqlite = error as? SQLiteError
            XCTAssertEqual(sqlite.map { $0.code & 0xff }, 14, "SQLITE_CANTOPEN")
            XCTAssertEqual(sqlite?.message.contains("unable to open"), true, "\(error)")
        }
        let db = try SQLiteConnection(path: path)
        defer { db.close() }
        XCTAssertThrowsError(try db.run("INSERT INTO nowhere VALUES (1)")) { error in
            XCTAssertEqual((error as? SQLiteError)?.message, "no such table: nowhere")
        }
    }
}
