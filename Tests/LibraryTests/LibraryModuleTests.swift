import XCTest
@testable import Library

final class LibraryModuleTests: XCTestCase {
    func testModuleLinks() { XCTAssertTrue(true) }
}
