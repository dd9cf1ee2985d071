import Dispatch
import Foundation
import XCTest
@testable import App

final class OperationsHealthDefaultURLTests: XCTestCase {
    func testTheDefaultURLFollowsTheServersSettings() throws {
        XCTAssertEqual(HealthCommand.defaultURL(Configuration()), "http://127.0.0.1:8080")
        var container = try Configuration.load(file: nil, environment: ["PHOTOSCROLL_HOST": "0.0.0.0", "PORT": "9000"])
        XCTAssertEqual(HealthCommand.defaultURL(container), "http://127.0.0.1:9000", "every interface includes loopback")
        container.host = "::"
        XCTAssertEqual(HealthCommand.defaultURL(container), "http://[::1]:9000")
        container.host = "10.1.2.3"
        XCTAssertEqual(HealthCommand.defaultURL(container), "http://10.1.2.3:9000", "a server bound to one address is probed there")
    }
}
