import XCTest
@testable import Search

/// What is offered as one types.
final class SuggestionVocabularyTests: XCTestCase {
    func testStartsWithWhatWasTyped() {
        var vocabulary = SuggestionVocabulary()
        vocabulary.add(.place, text: "São Paulo", photoID: 1)
        vocabulary.add(.place, text: "São Paulo", photoID: 2)
        vocabulary.add(.place, text: "Santos", photoID: 3)
        vocabulary.add(.month, text: "July 2019", query: "july 2019", photoID: 1)
        vocabulary.add(.year, text: "2019", photoID: 1)
        vocabulary.add(.camera, text: "FUJIFILM X100V", photoID: 3)
        vocabulary.add(.folder, text: "Saturday", photoID: 4)
        let sa = vocabulary.suggestions(for: "Sa")
        XCTAssertEqual(sa.map(\.text), ["São Paulo", "Santos", "Saturday"], "most photos first, then by text")
        XCTAssertEqual(sa.first?.count, 2)
        XCTAssertEqual(vocabulary.suggestions(for: "paul").map(\.text), ["São Paulo"], "a word of the text")
        XCTAssertEqual(vocabulary.suggestions(for: "sao paulo x").map(\.text), [])
        XCTAssertEqual(vocabulary.suggestions(for: "2019").map(\.kind), [.year, .month])
        XCTAssertEqual(vocabulary.suggestions(for: "jul").first?.query, "july 2019")
        XCTAssertEqual(vocabulary.suggestions(for: "x100").map(\.kind), [.camera])
        XCTAssertEqual(vocabulary.suggestions(for: "sa", sees: { $0 != 2 }).first?.count, 1, "only the photos seen are counted")
        XCTAssertEqual(vocabulary.suggestions(for: "sa", kinds: [.folder]).map(\.text), ["Saturday"])
        XCTAssertEqual(vocabulary.suggestions(for: "s", limit: 1).count, 1)
        XCTAssertEqual(vocabulary.suggestions(for: " - ").count, 0)
    }
}
