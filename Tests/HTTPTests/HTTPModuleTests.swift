import XCTest
@testable import HTTP

final class HTTPModuleTests: XCTestCase {
    func testModuleLinks() { XCTAssertTrue(true) }
}
