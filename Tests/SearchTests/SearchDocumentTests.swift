import XCTest
@testable import Search

/// A photo's words per field, folded as a query is, so that the query's terms meet them.
final class SearchDocumentTests: XCTestCase {
    func testFields() {
        var document = SearchDocument()
        document.addPath("Trips/2019 Lisboa/IMG_0042.JPG")
        document.addDate(year: 2019, month: 7, day: 14)
        document.add("FUJIFILM", to: .camera)
        document.add("X100V", to: .camera)
        document.addPlace(Place(city: "São Paulo", region: "São Paulo", country: "Brazil", countryCode: "BR"))
        document.add("Café at dusk", to: .comment)
        XCTAssertEqual(document.words[.name], ["trips", "2019", "lisboa", "img", "0042", "jpg"])
        XCTAssertEqual(document.words[.date], ["2019", "july", "20190714"])
        XCTAssertEqual(document.text(of: .camera), "fujifilm x100v")
        XCTAssertEqual(document.words[.place], ["sao", "paulo", "brazil"], "without repeats")
        XCTAssertEqual(document.words[.comment], ["cafe", "at", "dusk"])
    }

    /// Every query term's word is one the document holds (or a prefix of one) in a field the
    /// term may match: the two sides fold alike.
    func testQueryMeetsDocument() throws {
        var document = SearchDocument()
        document.addPlace(Place(city: "São Paulo", region: "", country: "Brazil", countryCode: "BR"))
        document.add("ILCE-7M3", to: .camera)
        document.addDate(year: 2019, month: 7, day: 14)
        for typed in ["sao paulo", "SAO", "ilce-7m3", "july 2019", "2019-07-14", "jul", "braz"] {
            for term in try SearchQuery.parse(typed).terms {
                let met = term.matches.contains { match in
                    match.fields.contains { field in
                        (document.words[field] ?? []).contains { match.prefix ? $0.hasPrefix(match.word) : $0 == match.word }
                    }
                }
                XCTAssertTrue(met, "\(typed): \(term.text)")
            }
        }
        let year = try SearchQuery.parse("2018").terms[0]
        XCTAssertFalse(year.matches.contains { ($0.fields.contains(.date)) && $0.word == "2019" })
    }
}

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
