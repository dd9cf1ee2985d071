import SQLTesting
import XCTest
@testable import SQL

/// Statements, values, the statement cache and typed errors; every test body runs on SQLite and on PostgreSQL.
final class SQLStatementTests: XCTestCase {
    private struct Note: SQLRowDecodable, Equatable {
        let id: Int
        let text: String
        let score: Double?
        init(id: Int, text: String, score: Double?) { self.id = id; self.text = text; self.score = score }
        init(row: SQLRow) throws {
            id = try row.decode("id")
            text = try row.decode("text")
            score = try row.decode("score")
        }
    }

    private func makeNotes(_ db: SQLDatabase) throws {
        let d = db.dialect
        try db.withConnection { try $0.execute("""
            CREATE TABLE notes (id \(d.generatedPrimaryKey), text TEXT NOT NULL UNIQUE, score \(d.double),
                                data \(d.blob), flag INTEGER NOT NULL DEFAULT 0, big \(d.bigint),
                                CHECK (length(text) < 100))
            """) }
    }

    func testIntegersAreReadRowAfterRowAndAnythingElseIsRefused() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try makeNotes(db)
            for (i, text) in ["a", "b", "c"].enumerated() { try db.run("INSERT INTO notes (text, big) VALUES (\(text), \(i * 10))") }
            XCTAssertEqual(try db.integers("SELECT id, big FROM notes ORDER BY id"), [1, 0, 2, 10, 3, 20], place.name)
            XCTAssertEqual(try db.integers("SELECT id FROM notes WHERE id > 5"), [], place.name)
            XCTAssertThrowsError(try db.integers("SELECT id, text FROM notes"), place.name)
            XCTAssertThrowsError(try db.integers("SELECT score FROM notes"), "\(place.name): NULL is not an integer")
        }
    }

    func testValuesRoundTripUnchanged() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try makeNotes(db)
            let bytes: [UInt8] = [0, 1, 2, 0x7f, 0x80, 0xff]
            let text = "Ünïcødé 🐈 'quoted' \"double\" \\ back"
            let row = try XCTUnwrap(db.withConnection { c in
                try c.first("""
                    INSERT INTO notes (text, score, data, flag, big) VALUES (\(text), \(-0.125), \(bytes), \(true), \(Int64.max))
                    RETURNING id, text, score, data, flag, big
                    """)
            })
            XCTAssertEqual(try row.decode("text", as: String.self), text, "\(place.engine)")
            XCTAssertEqual(try row.decode("score", as: Double.self), -0.125)
            XCTAssertEqual(try row.decode("data", as: [UInt8].self), bytes)
            XCTAssertEqual(try row.decode("flag", as: Bool.self), true)
            XCTAssertEqual(try row.decode("big", as: Int64.self), Int64.max)
            XCTAssertGreaterThan(try row.decode("id", as: Int.self), 0)

            try db.run("INSERT INTO notes (text, data, big) VALUES (\("empty"), \([UInt8]()), \(Int64.min))")
            let empty = try XCTUnwrap(db.query("SELECT score, data, big FROM notes WHERE text = \("empty")").first)
            XCTAssertNil(try empty.decode(0, as: Double?.self), "NULL reads as nil")
            XCTAssertEqual(try empty.decode(1, as: [UInt8].self), [], "an empty blob is not NULL")
            XCTAssertEqual(try empty.decode(2, as: Int64.self), Int64.min)
            XCTAssertThrowsError(try empty.decode(0, as: Double.self)) { error in
                XCTAssertEqual((error as? SQLError)?.kind, .decoding)
                XCTAssertTrue("\(error)".contains("score"), "the message names the column: \(error)")
            }
            XCTAssertThrowsError(try empty.decode("nope", as: Int.self))
        }
    }

    func testRowsDecodeIntoTypesAndChangedCountsAreReported() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try makeNotes(db)
            for (i, word) in ["a", "b", "c"].enumerated() {
                try db.run("INSERT INTO notes (text, score) VALUES (\(word), \(i == 1 ? nil : Double(i)))")
            }
            let notes = try db.query("SELECT id, text, score FROM notes ORDER BY id", as: Note.self)
            XCTAssertEqual(notes.map(\.text), ["a", "b", "c"], "\(place.engine)")
            XCTAssertEqual(notes.map(\.score), [0, nil, 2])
            XCTAssertEqual(try db.run("UPDATE notes SET flag = 1 WHERE text <> \("b")"), 2)
            XCTAssertEqual(try db.run("DELETE FROM notes WHERE text = \("zzz")"), 0)
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM notes WHERE flag = 1", as: Int.self), 2)
            XCTAssertNil(try db.scalar("SELECT id FROM notes WHERE text = \("zzz")", as: Int.self))
        }
    }

    func testUpsertAndReturningAreWrittenOnceForBothEngines() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try db.withConnection { try $0.execute("CREATE TABLE counts (name TEXT PRIMARY KEY, n \(db.dialect.bigint) NOT NULL)") }
            let upsert: (String) throws -> Int = { name in
                try db.scalar("""
                    INSERT INTO counts (name, n) VALUES (\(name), 1)
                    ON CONFLICT (name) DO UPDATE SET n = counts.n + excluded.n
                    RETURNING n
                    """, as: Int.self)!
            }
            XCTAssertEqual(try upsert("x"), 1, "\(place.engine)")
            XCTAssertEqual(try upsert("x"), 2)
            XCTAssertEqual(try upsert("y"), 1)
            let ignored = try db.query("INSERT INTO counts (name, n) VALUES (\("x"), 9) ON CONFLICT DO NOTHING RETURNING n")
            XCTAssertTrue(ignored.isEmpty, "DO NOTHING returns no row")
        }
    }

    func testAStatementIsPreparedOncePerConnectionNotOnEveryCall() throws {
        try SQLTestDatabase.forEachEngine { place in
            var options = SQLDatabaseOptions()
            options.sqliteConnections = 1
            options.postgres.maxConnections = 1
            let db = try place.open(options: options)
            try makeNotes(db)
            for i in 0..<50 {
                try db.run("INSERT INTO notes (text) VALUES (\("note \(i)"))")
                _ = try db.query("SELECT id, text FROM notes WHERE text = \("note \(i)")")
            }
            let statistics = try db.withConnection { $0.statementStatistics }
            XCTAssertEqual(statistics.prepares, 2, "two texts, one connection: \(place.engine) \(statistics)")
            XCTAssertEqual(statistics.hits, 98)
        }
    }

    func testConstraintAndStatementErrorsHaveTheSameKindOnBothEngines() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try makeNotes(db)
            try db.withConnection { try $0.execute("""
                CREATE TABLE tags (note_id \(db.dialect.bigint) NOT NULL REFERENCES notes (id), tag TEXT NOT NULL)
                """) }
            try db.run("INSERT INTO notes (text) VALUES (\("once"))")
            func kind(_ query: SQLQuery) -> SQLError.Kind? {
                do {
                    try db.run(query)
                    return nil
                } catch {
                    return (error as? SQLError)?.kind
                }
            }
            let name = "\(place.engine)"
            XCTAssertEqual(kind("INSERT INTO notes (text) VALUES (\("once"))"), .uniqueViolation, name)
            XCTAssertEqual(kind("INSERT INTO notes (text) VALUES (\(String?.none))"), .notNullViolation, name)
            XCTAssertEqual(kind("INSERT INTO notes (text) VALUES (\(String(repeating: "x", count: 200)))"), .checkViolation, name)
            XCTAssertEqual(kind("INSERT INTO tags (note_id, tag) VALUES (\(999), \("x"))"), .foreignKeyViolation, name)
            XCTAssertEqual(kind("SELEKT 1"), .invalidStatement, name)
            XCTAssertEqual(kind("SELECT * FROM no_such_table"), .invalidStatement, name)
            // The pool is fine after errors: the next statement works.
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM notes", as: Int.self), 1)
        }
    }

    func testAFullSQLiteDatabaseFailsWithDiskFullAndKeepsWhatWasCommitted() throws {
        let place = try SQLTestDatabase.sqlite()
        defer { place.remove() }
        var options = SQLDatabaseOptions()
        options.sqliteConnections = 1
        let db = try place.open(options: options)
        try makeNotes(db)
        try db.run("INSERT INTO notes (text) VALUES (\("kept"))")
        let error = try db.withConnection { c -> SQLError? in
            // The database's size cap is a real SQLITE_FULL without filling a disk.
            let pages = try c.scalar("PRAGMA page_count", as: Int.self)!
            try c.execute("PRAGMA max_page_count = \(pages + 2)")
            do {
                try c.transaction { tx in
                    for i in 0..<2000 { try tx.run("INSERT INTO notes (text, data) VALUES (\("n\(i)"), \([UInt8](repeating: 7, count: 2000)))") }
                }
                return nil
            } catch {
                return error as? SQLError
            }
        }
        XCTAssertEqual(error?.kind, .diskFull, "\(String(describing: error))")
        XCTAssertEqual(try db.query("SELECT text FROM notes").compactMap { try $0.decode(0, as: String.self) }, ["kept"])
    }

    func testAConnectionKeptPastItsClosureRefusesToWork() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            let kept = try db.withConnection { $0 }
            XCTAssertThrowsError(try kept.query("SELECT 1")) { error in
                XCTAssertEqual((error as? SQLError)?.kind, .misuse)
            }
        }
    }

    func testAWrongNumberOfValuesIsAnErrorOnBothEngines() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            XCTAssertThrowsError(try db.query(SQLQuery("SELECT $1, $2", [1])), "\(place.engine): too few")
            XCTAssertThrowsError(try db.query(SQLQuery("SELECT $1", [1, 2])), "\(place.engine): too many")
        }
    }

    func testATransactionABorrowerLeftOpenIsRolledBackBeforeTheNextLoan() throws {
        try SQLTestDatabase.forEachEngine { place in
            var options = SQLDatabaseOptions()
            options.sqliteConnections = 1
            options.postgres.maxConnections = 1
            let db = try place.open(options: options)
            try makeNotes(db)
            try db.withConnection { c in
                try c.execute("BEGIN")
                try c.run("INSERT INTO notes (text) VALUES (\("left open"))")
            }
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM notes", as: Int.self), 0, "\(place.engine)")
            XCTAssertNoThrow(try db.transaction { try $0.run("INSERT INTO notes (text) VALUES (\("next"))") })
        }
    }
}
