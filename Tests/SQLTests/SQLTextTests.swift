import XCTest
@testable import SQL

/// The parts of the module that need no database: statement text, caching, backoff, error kinds.
final class SQLTextTests: XCTestCase {
    func testPlaceholdersBecomeNumberedQuestionMarksOnlyOutsideLiteralsNamesAndComments() {
        let cases: [(String, String)] = [
            ("SELECT $1", "SELECT ?1"),
            ("SELECT * FROM t WHERE a = $1 AND b = $2 OR a = $1", "SELECT * FROM t WHERE a = ?1 AND b = ?2 OR a = ?1"),
            ("SELECT '$1', $2", "SELECT '$1', ?2"),
            ("SELECT 'it''s $1', $3", "SELECT 'it''s $1', ?3"),
            ("SELECT \"col$1\" FROM t WHERE x = $12", "SELECT \"col$1\" FROM t WHERE x = ?12"),
            ("SELECT $1 -- and $2\n, $3", "SELECT ?1 -- and $2\n, ?3"),
            ("SELECT /* $1 */ $2", "SELECT /* $1 */ ?2"),
            ("SELECT price$ FROM t", "SELECT price$ FROM t"),
            ("SELECT 'unterminated $1", "SELECT 'unterminated $1"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(SQLDialect.numberedQuestionMarks(input), expected, input)
            XCTAssertEqual(SQLDialect(.postgres).statement(input), input, "PostgreSQL keeps $n")
        }
    }

    func testInterpolationBindsValuesInOrderAndSplicesRawTextAsIs() {
        let photoID = 3
        let author: String? = nil
        let query: SQLQuery = "SELECT id FROM \(raw: "comments") WHERE photo_id = \(photoID) AND author IS \(author) AND text = \("x'); DROP TABLE t; --")"
        XCTAssertEqual(query.sql, "SELECT id FROM comments WHERE photo_id = $1 AND author IS $2 AND text = $3")
        XCTAssertEqual(query.bindings, [.integer(3), .null, .text("x'); DROP TABLE t; --")])
        let explicit = SQLQuery("SELECT $2, $1", [1, "two"])
        XCTAssertEqual(explicit.bindings, [.integer(1), .text("two")])
    }

    func testStatementCachePreparesEachTextOnceAndDropsTheLeastRecentlyUsed() {
        var cache = StatementCache<Int>(capacity: 2)
        var prepared = 0
        var evicted: [Int] = []
        func get(_ sql: String) -> Int {
            cache.statement(for: sql, prepare: { prepared += 1; return prepared }, evicted: { evicted.append($0) })
        }
        XCTAssertEqual(get("a"), 1)
        XCTAssertEqual(get("b"), 2)
        XCTAssertEqual(get("a"), 1, "a cached statement is reused")
        XCTAssertEqual(get("c"), 3)
        XCTAssertEqual(evicted, [2], "b was the least recently used")
        XCTAssertEqual(get("a"), 1)
        XCTAssertEqual(get("b"), 4, "an evicted text is prepared again")
        XCTAssertEqual(cache.prepares, 4)
        XCTAssertEqual(cache.hits, 2)
        XCTAssertEqual(cache.count, 2)
    }

    func testBackoffDoublesFromInitialUpToMaximumAndJitterOnlyShortens() {
        let backoff = SQLBackoff(initial: .milliseconds(50), maximum: .seconds(1))
        XCTAssertEqual(backoff.delay(afterFailures: 0), .zero)
        XCTAssertEqual(backoff.delay(afterFailures: 1), .milliseconds(50))
        XCTAssertEqual(backoff.delay(afterFailures: 2), .milliseconds(100))
        XCTAssertEqual(backoff.delay(afterFailures: 5), .milliseconds(800))
        XCTAssertEqual(backoff.delay(afterFailures: 6), .seconds(1))
        XCTAssertEqual(backoff.delay(afterFailures: 1000), .seconds(1))
        XCTAssertEqual(backoff.delay(afterFailures: 2, jitter: 1), .milliseconds(50))
    }

    func testSQLiteResultCodesAndSQLSTATEsMapToTheSameKinds() {
        let sqlite: [(Int32, Int32, SQLError.Kind)] = [
            (2067, 0, .uniqueViolation), (1555, 0, .uniqueViolation), (787, 0, .foreignKeyViolation),
            (1299, 0, .notNullViolation), (275, 0, .checkViolation), (5, 0, .busy), (517, 0, .busy), (6, 0, .busy),
            (13, 0, .diskFull), (778, 28, .diskFull), (778, 5, .other), (8, 0, .readOnly), (11, 0, .corrupt),
            (26, 0, .corrupt), (14, 0, .connectionFailed), (1, 0, .invalidStatement),
        ]
        for (code, errno, kind) in sqlite {
            XCTAssertEqual(SQLError.Kind.sqlite(code: code, systemErrno: errno), kind, "SQLite \(code)/\(errno)")
        }
        let postgres: [(String, SQLError.Kind)] = [
            ("23505", .uniqueViolation), ("23503", .foreignKeyViolation), ("23502", .notNullViolation),
            ("23514", .checkViolation), ("40001", .serializationFailure), ("40P01", .deadlock), ("55P03", .busy),
            ("53100", .diskFull), ("25006", .readOnly), ("XX001", .corrupt), ("57P01", .connectionLost),
            ("08006", .connectionLost), ("53300", .connectionFailed), ("28P01", .connectionFailed),
            ("42601", .invalidStatement), ("42P01", .invalidStatement), ("22012", .other),
        ]
        for (sqlstate, kind) in postgres {
            XCTAssertEqual(SQLError.Kind.postgres(sqlstate: sqlstate), kind, sqlstate)
        }
    }

    func testRetriesAreForFailuresAFreshRunCanFixButNeverForAnUnknownCommit() {
        for kind in [SQLError.Kind.serializationFailure, .deadlock, .busy, .connectionLost] {
            XCTAssertTrue(SQLRetryPolicy.shouldRetry(SQLError(kind, message: "")), kind.rawValue)
        }
        for kind in [SQLError.Kind.commitOutcomeUnknown, .uniqueViolation, .diskFull, .invalidStatement, .connectionFailed] {
            XCTAssertFalse(SQLRetryPolicy.shouldRetry(SQLError(kind, message: "")), kind.rawValue)
        }
    }

    func testDialectFragmentsDifferWhereTheEnginesDo() {
        XCTAssertEqual(SQLDialect(.sqlite).generatedPrimaryKey, "INTEGER PRIMARY KEY AUTOINCREMENT")
        XCTAssertTrue(SQLDialect(.postgres).generatedPrimaryKey.hasPrefix("BIGINT GENERATED"))
        XCTAssertEqual(SQLDialect(.postgres).bigint, "BIGINT")
        XCTAssertEqual(SQLDialect(.sqlite).blob, "BLOB")
    }

    func testLockKeysFromANamespaceAndIDAreStableAndDistinct() {
        XCTAssertEqual(SQLLockKey("pyramid-build", 42), SQLLockKey("pyramid-build", 42))
        XCTAssertNotEqual(SQLLockKey("pyramid-build", 42), SQLLockKey("pyramid-build", 43))
        XCTAssertNotEqual(SQLLockKey("pyramid-build", 1), SQLLockKey("folder-scan", 1))
        // FNV-1a is fixed, so a key is the same in every process and build.
        XCTAssertEqual(SQLLockKey("a", 0).value, SQLLockKey("a", 0).value)
    }
}
