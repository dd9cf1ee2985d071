import XCTest
@testable import Search

/// The order of answers, the same whatever engine found them.
final class SearchRankingTests: XCTestCase {
    func testScores() throws {
        var lisbon = SearchDocument()
        lisbon.addPlace(Place(city: "Lisbon", region: "Lisbon", country: "Portugal", countryCode: "PT"))
        var named = SearchDocument()
        named.addPath("lisboa-2019/a.jpg")
        var commented = SearchDocument()
        commented.add("lisbon was lovely", to: .comment)
        let query = try SearchQuery.parse("lisbon")
        let scores = [lisbon, named, commented].map { SearchRanking.score(query, words: $0.words) }
        XCTAssertEqual(scores, [6, 0, 2], "a whole word in a place, no match, a whole word in a comment")
        XCTAssertEqual(SearchRanking.score(try SearchQuery.parse("lisb"), words: named.words), 2, "a prefix in a name")
        XCTAssertEqual(SearchRanking.score(try SearchQuery.parse("lisb 2019"), words: named.words), 6,
                       "a name's whole word is a year's match")
        XCTAssertEqual(SearchRanking.score(try SearchQuery.parse("lisb 2018"), words: named.words), 0, "every term must match")
        XCTAssertEqual(SearchRanking.score(try SearchQuery.parse("201"), words: named.words), 2, "digits as a prefix")
        XCTAssertEqual(SearchRanking.score(try SearchQuery.parse("lisbon").limited(to: [.name, .comment]), words: lisbon.words), 0,
                       "a field left out is not asked")
    }
}
