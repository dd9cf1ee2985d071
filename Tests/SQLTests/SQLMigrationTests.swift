import Dispatch
import Foundation
import SQLTesting
import Synchronization
import XCTest
@testable import SQL

final class SQLMigrationTests: XCTestCase {
    /// Step 1 fails if run twice (the table exists), step 2 leaves one row per run.
    private func schema(slowFirstStep: Bool = false, extra: [SQLMigration] = []) -> SQLSchema {
        SQLSchema(name: "notes", migrations: [
            SQLMigration(version: 1, name: "notes table") { d in
                (slowFirstStep && d.engine == .postgres ? "SELECT pg_sleep(0.2);\n" : "")
                    + "CREATE TABLE notes (id \(d.generatedPrimaryKey), text TEXT NOT NULL)"
            },
            SQLMigration(version: 2, name: "first note", sql: "INSERT INTO notes (text) VALUES ('migrated')"),
        ] + extra)
    }

    func testStepsRunInOrderOnceAndAreRecorded() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            let first = try db.migrate(schema())
            XCTAssertEqual(first, SQLMigrationReport(schema: "notes", from: 0, to: 2, applied: [1, 2], adopted: []), "\(place.engine)")
            let again = try db.migrate(schema())
            XCTAssertEqual(again, SQLMigrationReport(schema: "notes", from: 2, to: 2, applied: [], adopted: []))
            let grown = try db.migrate(schema(extra: [SQLMigration(version: 3, name: "index", sql: "CREATE INDEX notes_text ON notes (text)")]))
            XCTAssertEqual(grown.applied, [3])
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM notes", as: Int.self), 1)
            let recorded = try db.query("SELECT version, name FROM schema_migrations WHERE schema_name = \("notes") ORDER BY version")
            XCTAssertEqual(try recorded.map { try $0.decode(1, as: String.self) }, ["notes table", "first note", "index"])
        }
    }

    func testSchemasShareTheRecordWithoutMixing() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try db.migrate(schema())
            let other = SQLSchema(name: "tags", migrations: [SQLMigration(version: 1, name: "tags", sql: "CREATE TABLE tags (t TEXT)")])
            XCTAssertEqual(try db.migrate(other).applied, [1], "\(place.engine)")
            XCTAssertEqual(try db.migrate(schema()).applied, [])
        }
    }

    func testADatabaseMigratedByANewerBuildIsRefused() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try db.migrate(schema(extra: [SQLMigration(version: 3, name: "future", sql: "CREATE TABLE future (x INTEGER)")]))
            XCTAssertThrowsError(try db.migrate(schema())) { error in
                XCTAssertEqual((error as? SQLError)?.kind, .schemaTooNew, "\(place.engine)")
                XCTAssertTrue("\(error)".contains("version 3"), "\(error)")
            }
        }
    }

    func testAnEditedStepIsRefusedByName() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try db.migrate(schema())
            let edited = SQLSchema(name: "notes", migrations: [
                SQLMigration(version: 1, name: "notes table, renamed", sql: "SELECT 1"),
                SQLMigration(version: 2, name: "first note", sql: "SELECT 1"),
            ])
            XCTAssertThrowsError(try db.migrate(edited)) { error in
                XCTAssertTrue("\(error)".contains("notes table, renamed"), "\(place.engine): \(error)")
            }
        }
    }

    func testADatabaseFromBeforeTheRecordIsAdoptedAtItsVersion() throws {
        let place = try SQLTestDatabase.sqlite()
        defer { place.remove() }
        let db = try place.open()
        // A file as the comment store makes it today: the schema is there, PRAGMA user_version says 1.
        try db.withConnection { try $0.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL); PRAGMA user_version = 1") }
        let adopting = SQLSchema(name: "notes", migrations: schema().migrations) { connection in
            try connection.scalar("PRAGMA user_version", as: Int.self) ?? 0
        }
        let report = try db.migrate(adopting)
        XCTAssertEqual(report, SQLMigrationReport(schema: "notes", from: 1, to: 2, applied: [2], adopted: [1]))
        XCTAssertEqual(try db.scalar("SELECT count(*) FROM notes", as: Int.self), 1)
    }

    func testAFailingStepLeavesTheEarlierStepsAndRecordsNothingOfItself() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            let broken = schema(extra: [SQLMigration(version: 3, name: "broken", sql: "CREATE TABLE x (y INTEGER); SELEKT")])
            XCTAssertThrowsError(try db.migrate(broken))
            // PostgreSQL commits each step on its own; SQLite runs them all, and the record's
            // creation, in one transaction.
            let recorded = try (try? db.query("SELECT version FROM schema_migrations ORDER BY version"))?
                .map { try $0.decode(0, as: Int.self) } ?? []
            XCTAssertEqual(recorded, place.engine == .postgres ? [1, 2] : [], "\(place.engine)")
            XCTAssertThrowsError(try db.query("SELECT * FROM x"), "the failed step left no table")
        }
    }

    func testReplicasStartingTogetherMigrateOnce() throws {
        try SQLTestDatabase.forEachEngine { place in
            let replicas = try (0..<6).map { _ in try place.open() }
            let reports = Mutex<[SQLMigrationReport]>([])
            let failures = Mutex<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for replica in replicas {
                group.enter()
                Thread.detachNewThread { [schema = schema(slowFirstStep: true)] in
                    start.wait()
                    do {
                        let report = try replica.migrate(schema)
                        reports.withLock { $0.append(report) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    group.leave()
                }
            }
            for _ in replicas { start.signal() }
            group.wait()
            XCTAssertEqual(failures.withLock { $0 }, [], "\(place.engine)")
            let all = reports.withLock { $0 }
            XCTAssertEqual(all.filter { $0.applied == [1, 2] }.count, 1, "\(place.engine): exactly one replica ran the steps: \(all)")
            XCTAssertEqual(all.filter { $0.applied.isEmpty && $0.to == 2 }.count, 5)
            XCTAssertEqual(try replicas[0].scalar("SELECT count(*) FROM notes", as: Int.self), 1, "step 2 ran once")
        }
    }
}
