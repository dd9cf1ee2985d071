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
