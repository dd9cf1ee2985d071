import Foundation
import XCTest
import Imaging
@testable import Library

final class VersionIndexTests: XCTestCase {
    func testPhotosSharingAVersionAreListedTogetherAndApartAgain() {
        var index = VersionIndex()
        index.insert(1, "aaa")
        index.insert(2, "bbb")
        index.insert(1, "aaa")  // again: still once
        XCTAssertEqual(index.ids("aaa"), [1])
        index.insert(3, "aaa")  // a duplicate file
        index.insert(4, "aaa")
        XCTAssertEqual(index.ids("aaa"), [1, 3, 4])
        index.insert(5, "ccc")  // a version of its own while others are shared
        XCTAssertEqual(index.ids("ccc"), [5])
        index.remove(3, "aaa")
        index.remove(1, "aaa")
        XCTAssertEqual(index.ids("aaa"), [4])
        index.insert(6, "aaa")
        XCTAssertEqual(index.ids("aaa"), [4, 6])
        index.remove(2, "bbb")
        XCTAssertEqual(index.ids("bbb"), [])
        XCTAssertEqual(index.versions, ["aaa", "ccc"])
    }
}
