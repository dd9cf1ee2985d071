import Search
import XCTest
@testable import SearchIndex

/// The engines' expressions are made of our quoted words only, whatever was typed.
final class SearchMatchExpressionTests: XCTestCase {
    func testExpressions() throws {
        let query = try SearchQuery.parse("lisb 2019")
        XCTAssertEqual(SearchMatchExpression.fts5(query),
                       #"({place date camera comment name album} : "lisb" *) AND ({date} : "2019" OR {name album} : "2019")"#)
        XCTAssertEqual(SearchMatchExpression.tsquery(query),
                       "('plisb':* | 'dlisb':* | 'clisb':* | 'mlisb':* | 'nlisb':* | 'alisb':*) & ('d2019' | 'n2019' | 'a2019')")
    }

    func testTypedSyntaxIsNeverSyntax() throws {
        let query = try SearchQuery.parse(#"" * NEAR( : - ') OR 1=1; -- {place}:x ^y"#)
        let fts5 = SearchMatchExpression.fts5(query)
        for term in query.terms { XCTAssertTrue(fts5.contains("\"\(term.text)\""), term.text) }
        XCTAssertFalse(fts5.contains("NEAR("), "NEAR is a quoted word")
        XCTAssertFalse(SearchMatchExpression.tsquery(query).contains("'')"))
    }

    func testQuoting() {
        XCTAssertEqual(SearchMatchExpression.quoted(#"a"b"#, quote: "\""), #""a""b""#)
        XCTAssertEqual(SearchMatchExpression.quoted(#"a'b\c"#, quote: "'"), #"'a''b\\c'"#)
    }
}
