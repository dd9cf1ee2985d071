import XCTest
@testable import Search

/// What a typed query becomes: terms, their kinds, where each may match; and what is refused.
final class SearchQueryTests: XCTestCase {
    typealias Match = SearchTerm.Match
    let every = Set(SearchField.allCases)

    func testTerms() throws {
        let table: [(query: String, terms: [(String, SearchTerm.Kind)], line: UInt)] = [
            ("sao paulo", [("sao", .word), ("paulo", .word)], #line),
            ("São  PAULO", [("sao", .word), ("paulo", .word)], #line),
            ("lisb", [("lisb", .word)], #line),
            ("july 2019", [("july", .month(7)), ("2019", .year(2019))], #line),
            ("2019-07-14", [("2019-07-14", .day(year: 2019, month: 7, day: 14))], #line),
            ("2019-13-14", [("2019", .year(2019)), ("13", .word), ("14", .word)], #line),
            ("ilce-7m3", [("ilce", .word), ("7m3", .word)], #line),
            ("july-2019", [("july", .month(7)), ("2019", .year(2019))], #line),
            ("img_2019.jpg", [("img", .word), ("2019", .year(2019)), ("jpg", .word)], #line),
            ("x100v x100v", [("x100v", .word)], #line),
            ("\"a\" * NEAR : -", [("a", .word), ("near", .word)], #line),
            ("' OR 1=1 --", [("or", .word), ("1", .word)], #line),
            ("", [], #line),
            ("*** ---", [], #line),
        ]
        for row in table {
            let query = try SearchQuery.parse(row.query)
            XCTAssertEqual(query.terms.map(\.text), row.terms.map(\.0), row.query, line: row.line)
            XCTAssertEqual(query.terms.map(\.kind), row.terms.map(\.1), row.query, line: row.line)
        }
    }

    func testWhereTermsMatch() throws {
        let query = try SearchQuery.parse("lisb 2019 2019-07-14 july")
        XCTAssertEqual(query.terms[0].matches, [Match(word: "lisb", fields: every, prefix: true)])
        // A year is the date's, or a file, folder or album name's whole word: never a prefix, never a comment's.
        XCTAssertEqual(query.terms[1].matches, [Match(word: "2019", fields: [.date], prefix: false),
                                                 Match(word: "2019", fields: [.name, .album], prefix: false)])
        XCTAssertEqual(query.terms[2].matches, [Match(word: "20190714", fields: [.date], prefix: false)])
        XCTAssertEqual(query.terms[3].matches, [Match(word: "july", fields: every, prefix: true)])
    }

    func testLimitedFields() throws {
        let query = try SearchQuery.parse("lisbon 2019").limited(to: [.date, .camera, .name])
        XCTAssertEqual(query.terms[0].matches, [Match(word: "lisbon", fields: [.date, .camera, .name], prefix: true)])
        XCTAssertFalse(query.isUnanswerable)
        let dateless = try SearchQuery.parse("2019-07-14").limited(to: [.name, .place])
        XCTAssertTrue(dateless.isUnanswerable)
    }

    func testRefusals() {
        XCTAssertThrowsError(try SearchQuery.parse(String(repeating: "a", count: 201))) {
            XCTAssertEqual($0 as? SearchQueryError, .tooLong(limit: 200))
        }
        XCTAssertNoThrow(try SearchQuery.parse(String(repeating: "a", count: 200)))
        let twentyOne = (1...21).map { "w\($0)" }.joined(separator: " ")
        XCTAssertThrowsError(try SearchQuery.parse(twentyOne)) {
            XCTAssertEqual($0 as? SearchQueryError, .tooManyWords(limit: 20))
        }
        XCTAssertNoThrow(try SearchQuery.parse((1...20).map { "w\($0)" }.joined(separator: " ")))
        XCTAssertThrowsError(try SearchQuery.parse("lis\u{0}bon")) { XCTAssertEqual($0 as? SearchQueryError, .malformed) }
        XCTAssertThrowsError(try SearchQuery.parse("a\u{1B}b")) { XCTAssertEqual($0 as? SearchQueryError, .malformed) }
        // An unpaired surrogate (U+D800 written as UTF-8 would write it) and a stray byte.
        XCTAssertThrowsError(try SearchQuery.parse(utf8: [0x61, 0xED, 0xA0, 0x80])) { XCTAssertEqual($0 as? SearchQueryError, .malformed) }
        XCTAssertThrowsError(try SearchQuery.parse(utf8: [0x61, 0xFF])) { XCTAssertEqual($0 as? SearchQueryError, .malformed) }
        XCTAssertEqual(try SearchQuery.parse(utf8: Array("São".utf8)).terms.map(\.text), ["sao"])
    }
}
