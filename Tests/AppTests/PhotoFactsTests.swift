import Foundation
@testable import App
import Imaging
@testable import Library
import Search
import XCTest

/// A photo's record read for search: its day, camera, lens and place, and the words made of them.
final class PhotoFactsTests: XCTestCase {
    static let london = ["1", "London", "London", "", "51.50853", "-0.12574", "P", "PPLC", "GB", "", "ENG",
                         "", "", "", "8961989", "", "25", "Europe/London", "2024-01-01"].joined(separator: "\t") + "\n"
    let places = PlaceIndex(cities: Data(london.utf8), regions: Data("GB.ENG\tEngland\tEngland\t1\n".utf8))

    func photo(details: String?) -> Photo {
        Photo(id: 7, relativePath: "Trips/2019 Lisboa/IMG_0042.JPG", sourcePath: "/p/Trips/2019 Lisboa/IMG_0042.JPG", title: "IMG_0042",
              width: 10, height: 10, version: "v", status: .ready,
              taken: CaptureDate(rfc3339: "2019-07-14T18:30:00+01:00", source: .exif), details: details)
    }

    func testFactsAndWords() throws {
        let details = #"{"takenFrom":"exif","make":"Canon","model":"Canon EOS R5","lens":"RF24-105mm F4 L","width":10,"height":10,"#
            + #""location":{"latitude":51.5,"longitude":-0.1}}"#
        let facts = PhotoFacts(photo(details: details), places: places)
        XCTAssertTrue(facts.day.map { $0 == (2019, 7, 14) } ?? false, "the day on the photo's clock, not in UTC")
        XCTAssertEqual(facts.camera, "Canon EOS R5", "the make once")
        XCTAssertEqual(facts.place?.city, "London")
        let words = PhotoSearchWords.document(photo(details: details), comments: ["Ça va"], places: places).words
        XCTAssertEqual(words[.camera], ["canon", "eos", "r5", "rf24", "105mm", "f4", "l"])
        XCTAssertEqual(words[.place], ["london", "england", "united", "kingdom"])
        XCTAssertEqual(words[.date], ["2019", "july", "20190714"])
        XCTAssertEqual(words[.name], ["trips", "2019", "lisboa", "img", "0042", "jpg"])
        XCTAssertEqual(words[.comment], ["ca", "va"])
    }

    func testWithoutDetailsOrPlaces() {
        let bare = PhotoFacts(photo(details: nil), places: places)
        XCTAssertEqual(bare.camera, "")
        XCTAssertNil(bare.place)
        XCTAssertNil(PhotoFacts(photo(details: #"{"location":{"latitude":51.5,"longitude":-0.1}}"#), places: nil).place,
                     "no tables, no places")
        XCTAssertEqual(PhotoFacts(photo(details: #"{"make":"FUJIFILM","model":"X100V"}"#), places: nil).camera, "FUJIFILM X100V")
    }
}
