import SQLTesting
import XCTest
@testable import SQL

/// `phrase_score`, the FTS5 function every SQLite connection has: a row's score from where its
/// phrases matched, per the spec's groups and column weights.
final class PhraseScoreTests: XCTestCase {
    private func scores(_ db: SQLDatabase, match: String, spec: String) throws -> [Int: Int] {
        var found: [Int: Int] = [:]
        for row in try db.query("SELECT rowid, phrase_score(t, \(spec)) FROM t WHERE t MATCH \(match)") {
            found[try row.decode(0)] = try row.decode(1)
        }
        return found
    }

    func testGroupsTakeTheirBestMatchAndSumUp() throws {
        let place = try SQLTestDatabase.sqlite()
        let db = try place.open()
        defer { db.close() }
        try db.withConnection { try $0.execute("CREATE VIRTUAL TABLE t USING fts5(a, b)") }
        _ = try db.run("INSERT INTO t (rowid, a, b) VALUES (1, 'lisbon 2019', 'party'), (2, 'lisboa', 'lisbon'), (3, 'porto', '2019')")
        // One group: the whole word counts 6 in a and 2 in b, a prefix 3 in a and 1 in b.
        let one = "({a b} : \"lisbon\" OR {a b} : \"lisb\" *)"
        XCTAssertEqual(try scores(db, match: one, spec: "0 6 2;0 3 1"), [1: 6, 2: 3],
                       "row 2's best is the prefix in a (3) over the whole word in b (2)")
        // Two groups: their bests add up; a row must match both to be found at all.
        let two = one + " AND ({a} : \"2019\" OR {b} : \"2019\")"
        XCTAssertEqual(try scores(db, match: two, spec: "0 6 2;0 3 1;1 4 0;1 0 1"), [1: 10])
        // A group whose phrases weigh nothing where they matched scores the row 0.
        XCTAssertEqual(try scores(db, match: "{b} : \"2019\"", spec: "0 5 0"), [3: 0])
    }

    func testASpecThatDoesNotFitTheQueryIsAnError() throws {
        let place = try SQLTestDatabase.sqlite()
        let db = try place.open()
        defer { db.close() }
        try db.withConnection { try $0.execute("CREATE VIRTUAL TABLE t USING fts5(a, b)") }
        _ = try db.run("INSERT INTO t (rowid, a, b) VALUES (1, 'lisbon', '')")
        for spec in ["0 6", "0 6 2 1", "0 6 2;0 3 1", "x 6 2", "99 1 1", "0 6 2;", ""] {
            XCTAssertThrowsError(try scores(db, match: "\"lisbon\"", spec: spec), spec) { error in
                XCTAssertTrue("\(error)".contains("phrase_score"), "\(spec): \(error)")
            }
        }
    }
}
