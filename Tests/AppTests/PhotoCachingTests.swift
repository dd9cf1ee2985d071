import XCTest
@testable import App

final class PhotoCachingTests: XCTestCase {
    func testTheVersionParameterIsFoundWhereverItIs() {
        XCTAssertTrue(PhotoCaching.carriesVersion("v=abc", "abc"))
        XCTAssertTrue(PhotoCaching.carriesVersion("x=1&v=abc", "abc"))
        XCTAssertTrue(PhotoCaching.carriesVersion("v=abc&x=1", "abc"))
        XCTAssertTrue(PhotoCaching.carriesVersion("v=%61bc", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("v=abcd", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("vv=abc", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("v=", "abc"))
        XCTAssertFalse(PhotoCaching.carriesVersion("v=old&v=abc", "abc"), "the first v counts, as HTTPRequest.query says")
    }
}
