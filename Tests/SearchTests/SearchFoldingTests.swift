import XCTest
@testable import Search

/// The one folding both the index and the query use: a table of what typed text becomes.
final class SearchFoldingTests: XCTestCase {
    func testWords() {
        let table: [(text: String, words: [String], line: UInt)] = [
            ("São Paulo", ["sao", "paulo"], #line),
            ("SÃO PAULO", ["sao", "paulo"], #line),
            ("Zürich", ["zurich"], #line),
            ("Kraków", ["krakow"], #line),
            ("Straße", ["strasse"], #line),
            ("ΟΔΥΣΣΕΥΣ", ["οδυσσευσ"], #line),
            ("Ａｂｃ１２", ["abc12"], #line),              // full width, compatibility decomposition
            ("ﬁle", ["file"], #line),                     // ligature
            ("ILCE-7M3", ["ilce", "7m3"], #line),
            ("IMG_2019.jpg", ["img", "2019", "jpg"], #line),
            ("2019/07 Lisbon/", ["2019", "07", "lisbon"], #line),
            ("\"lisb*\" NEAR(a b) -x col:y", ["lisb", "near", "a", "b", "x", "col", "y"], #line),
            ("'; DROP TABLE photos; --", ["drop", "table", "photos"], #line),
            ("東京 タワー", ["東京", "タワー"], #line),
            ("  ", [], #line),
            ("", [], #line),
        ]
        for row in table {
            XCTAssertEqual(SearchFolding.words(row.text), row.words, row.text, line: row.line)
        }
    }

    func testFoldKeepsSeparators() {
        XCTAssertEqual(SearchFolding.fold("Café Noël"), "cafe noel")
    }
}
