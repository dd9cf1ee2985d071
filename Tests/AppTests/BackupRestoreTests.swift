import Foundation
import Observability
import SQL
import SQLTesting
import XCTest
@testable import App

/// Backups and restores between the engines in-process: every row and id kept, the keys moved
/// past them, and every refusal leaving the target as it was.
final class BackupRestoreTests: XCTestCase {
    func testTheBackupListsEveryTableTheMigrationsMake() throws {
        let folder = BackupFixture.scratchFolder("backup-layout")
        defer { try? FileManager.default.removeItem(at: folder) }
        let databases = try DatabaseStartup.open(BackupFixture.configuration(data: folder.path), logger: .disabled)
        defer { databases.close() }
        try BackupFixture.fill(databases)
        for store in BackupLayout.stores {
            let made = try BackupLayout.database(of: store, in: databases).query("""
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name
                """).map { try $0.decode(0, as: String.self) }
            XCTAssertEqual(store.tables.sorted(), made, "a table the \(store.name) store makes is missing from BackupLayout (or listed but not made)")
        }
        let snapshot = try BackupSnapshot.take(from: databases, sessions: false, now: 1)
        XCTAssertNil(snapshot.table("sessions"), "sessions only with --sessions")
        XCTAssertNil(snapshot.table("token_digest_key"), "the key their digests were made under only with them")
        XCTAssertEqual(snapshot.schemas, ["catalog": 3, "comments": 5, "access": 7, "collection": 3, "uploads": 2])
        XCTAssertEqual(try BackupSnapshot.take(from: databases, sessions: true, now: 1).table("sessions")?.rows.count, 1)
    }

    func testSQLiteToPostgresAndBackKeepsEveryRowIdAndKeyMark() throws {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        defer { try? cluster.dropDatabase(url) }
        let folder = BackupFixture.scratchFolder("backup-engines")
        defer { try? FileManager.default.removeItem(at: folder) }

        let sqlite = try DatabaseStartup.open(BackupFixture.configuration(data: folder.appendingPathComponent("one").path), logger: .disabled)
        try BackupFixture.fill(sqlite)
        let original = try BackupSnapshot.take(from: sqlite, sessions: true, now: 1)
        sqlite.close()
        XCTAssertEqual(original.table("comments")?.sequence, 3, "the deleted comment's id is the key's mark")

        let postgres = try DatabaseStartup.open(BackupFixture.configuration(data: folder.appendingPathComponent("two").path, database: url), logger: .disabled)
        try BackupRestore.restore(try BackupFile.decode(try BackupFile.encode(original)), into: postgres, force: false)
        let fromPostgres = try BackupSnapshot.take(from: postgres, sessions: true, now: 1)
        XCTAssertEqual(BackupFixture.contents(fromPostgres), BackupFixture.contents(original))
        XCTAssertEqual(fromPostgres.table("comments")?.sequence, 3)
        // New rows take ids after the restored ones, never one handed out before.
        XCTAssertEqual(try postgres.comments.scalar("INSERT INTO comments (photo_id, author, text, created_at) VALUES (1, 'ben', 'new', 2) RETURNING id", as: Int.self), 4)
        XCTAssertEqual(try postgres.catalog.scalar("INSERT INTO photos (path) VALUES ('new.jpg') RETURNING id", as: Int.self), 5)
        XCTAssertEqual(try postgres.comments.scalar("INSERT INTO users (name, role, password_hash, created_at, password_changed_at) VALUES ('ben', 'member', 'x', 1, 1) RETURNING id", as: Int.self), 6)
        postgres.close()

        let back = try DatabaseStartup.open(BackupFixture.configuration(data: folder.appendingPathComponent("three").path), logger: .disabled)
        defer { back.close() }
        try BackupRestore.restore(fromPostgres, into: back, force: false)
        let fromSQLite = try BackupSnapshot.take(from: back, sessions: true, now: 1)
        XCTAssertEqual(BackupFixture.contents(fromSQLite), BackupFixture.contents(original))
        XCTAssertEqual(try back.comments.scalar("INSERT INTO comments (photo_id, author, text, created_at) VALUES (1, 'ben', 'new', 2) RETURNING id", as: Int.self), 4)
        XCTAssertEqual(try back.catalog.scalar("INSERT INTO photos (path) VALUES ('new.jpg') RETURNING id", as: Int.self), 5)
    }

    func testANonEmptyTargetIsRefusedNamingWhatIsThereAndKeptUnlessForced() throws {
        let folder = BackupFixture.scratchFolder("backup-nonempty")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try DatabaseStartup.open(BackupFixture.configuration(data: folder.appendingPathComponent("one").path), logger: .disabled)
        try BackupFixture.fill(source)
        let snapshot = try BackupSnapshot.take(from: source, sessions: false, now: 1)
        source.close()

        let target = try DatabaseStartup.open(BackupFixture.configuration(data: folder.appendingPathComponent("two").path), logger: .disabled)
        defer { target.close() }
        for store in BackupLayout.stores { for schema in store.schemas { try BackupLayout.database(of: store, in: target).migrate(schema) } }
        try target.comments.run("INSERT INTO comments (photo_id, author, text, created_at) VALUES (9, 'eve', 'already here', 1)")
        XCTAssertThrowsError(try BackupRestore.restore(snapshot, into: target, force: false)) { error in
            XCTAssertTrue("\(error)".contains("not empty") && "\(error)".contains("comments (1 rows)") && "\(error)".contains("--force"), "\(error)")
        }
        XCTAssertEqual(try target.comments.scalar("SELECT text FROM comments", as: String.self), "already here")
        XCTAssertEqual(try target.catalog.scalar("SELECT count(*) FROM photos", as: Int.self), 0, "nothing written")

        try BackupRestore.restore(snapshot, into: target, force: true)
        XCTAssertEqual(try target.comments.query("SELECT id FROM comments ORDER BY id").map { try $0.decode(0, as: Int.self) }, [1, 2])
        XCTAssertEqual(try target.catalog.scalar("SELECT count(*) FROM photos", as: Int.self), 2)
    }

    func testARefusedFileWritesNothingNotEvenTheDataFolder() throws {
        let folder = BackupFixture.scratchFolder("backup-refused")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("bad.psbackup").path
        var bytes = try BackupFile.encode(BackupSnapshot(created: 1, schemas: ["comments": 4], sessions: false, tables: []))
        bytes.removeLast(8)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let data = folder.appendingPathComponent("data").path
        XCTAssertThrowsError(try RestoreCommand.run(configuration: BackupFixture.configuration(data: data), file: file, force: false, logger: .disabled)) {
            XCTAssertTrue("\($0)".contains("truncated") && "\($0)".contains("Nothing was written"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: data))

        // A backup of a schema newer than this build: refused before any row goes in.
        let newer = BackupSnapshot(created: 1, schemas: ["comments": 99], sessions: false, tables: [])
        let target = try DatabaseStartup.open(BackupFixture.configuration(data: data), logger: .disabled)
        defer { target.close() }
        XCTAssertThrowsError(try BackupRestore.restore(newer, into: target, force: false)) {
            XCTAssertTrue("\($0)".contains("comments schema is at version 99, newer than this build knows"), "\($0)")
        }
    }
}

extension BackupRestoreTests {
    func testABackupOfAnOlderSchemaIsRestoredAndThenMigratedForward() throws {
        let folder = BackupFixture.scratchFolder("backup-older")
        defer { try? FileManager.default.removeItem(at: folder) }
        // As a build before favourites, the trash and share uploads would have written it.
        let older = BackupSnapshot(created: 1, schemas: ["catalog": 3, "comments": 4, "access": 4, "uploads": 2], sessions: false, tables: [
            BackupTable(store: "comments", name: "shares",
                        columns: ["id", "token", "album_id", "photo_id", "created_by", "created_at", "expires_at", "password_hash", "download", "comments", "location"],
                        sequence: 4, rows: [[.integer(3), .text("tok"), .null, .integer(1), .integer(1), .integer(1), .null, .null, .integer(0), .integer(1), .integer(0)],
                                            // A link to album 2, when albums were folders.
                                            [.integer(4), .text("old"), .integer(2), .null, .integer(1), .integer(1), .null, .null, .integer(0), .integer(1), .integer(0)]]),
        ])
        let target = try DatabaseStartup.open(BackupFixture.configuration(data: folder.path), logger: .disabled)
        defer { target.close() }
        try BackupRestore.restore(older, into: target, force: false)
        XCTAssertEqual(try target.comments.scalar("SELECT upload FROM shares WHERE token = 'tok'", as: Int.self), 0, "step 5's column, added after the rows went in")
        XCTAssertEqual(try target.comments.scalar("SELECT max(version) FROM schema_migrations WHERE schema_name = 'collection'", as: Int.self), 3)
        let old = try XCTUnwrap(try target.comments.query("SELECT album_id, folder_id FROM shares WHERE token = 'old'").first)
        XCTAssertEqual(try old.decode(0, as: Int?.self), nil, "an album's link of a backup made when albums were folders…")
        XCTAssertEqual(try old.decode(1, as: Int?.self), 2, "…is restored as that folder's link")
        XCTAssertEqual(try target.comments.scalar("SELECT count(*) FROM collection_albums", as: Int.self), 0)
        XCTAssertEqual(try target.comments.scalar("SELECT count(*) FROM favourites", as: Int.self), 0)
    }
}
