import XCTest
@testable import Imaging

final class ImagingModuleTests: XCTestCase {
    func testModuleLinks() { XCTAssertTrue(true) }
}
