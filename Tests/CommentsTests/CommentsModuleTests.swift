import XCTest
@testable import Comments

final class CommentsModuleTests: XCTestCase {
    func testModuleLinks() { XCTAssertTrue(true) }
}
