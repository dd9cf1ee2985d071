import XCTest
@testable import Search

final class DateWordsTests: XCTestCase {
    func testIndexWords() {
        XCTAssertEqual(DateWords.words(year: 2019, month: 7, day: 14), ["2019", "july", "20190714"])
        XCTAssertEqual(DateWords.words(year: 2001, month: 1, day: 2), ["2001", "january", "20010102"])
        XCTAssertEqual(DateWords.words(year: 2019, month: 13, day: 1), [])
    }

    func testRecognition() {
        XCTAssertEqual(DateWords.year("2019"), 2019)
        XCTAssertNil(DateWords.year("201"))
        XCTAssertNil(DateWords.year("20190"))
        XCTAssertNil(DateWords.year("0042"), "outside the years a photo is taken in")
        XCTAssertNil(DateWords.year("２０１９"), "digits are ASCII")
        XCTAssertEqual(DateWords.month("july"), 7)
        XCTAssertNil(DateWords.month("jul"), "an abbreviation is a prefix, not a month")
        XCTAssertTrue(DateWords.day("2019-07-14").map { $0 == (2019, 7, 14) } ?? false)
        XCTAssertTrue(DateWords.day("2020-02-29").map { $0 == (2020, 2, 29) } ?? false)
        XCTAssertNil(DateWords.day("2019-02-29"), "not a leap year")
        XCTAssertNil(DateWords.day("1900-02-29"), "a century is not a leap year")
        XCTAssertNil(DateWords.day("2019-7-14"))
        XCTAssertNil(DateWords.day("2019-07-14-"))
    }
}
