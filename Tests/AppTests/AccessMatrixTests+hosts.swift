import Access
import Foundation
@testable import App
@testable import HTTP
import XCTest

/// The `Host` dimension of the route × visitor walk: a name this server does not answer to is
/// refused (421) on every route, for every visitor, reads included, before any rule is asked,
/// whatever cookie or `Origin` comes with it: a page whose name was pointed at this machine
/// (DNS rebinding) sends its own name, and the visitor's cookies never reach it anyway.
extension AccessMatrixTests {
    static let foreignHosts = ["rebound.example:8080", "photos.test.rebound.example", "localhost.rebound.example", "PHOTOS.TEST.evil", "[2001:db8::1]"]

    func testEveryRouteRefusesANameThisServerDoesNotServeForEveryVisitor() throws {
        var checked = 0
        for route in f.router.routes {
            for (index, visitor) in Self.visitors.enumerated() {
                let host = Self.foreignHosts[(checked + index) % Self.foreignHosts.count]
                let target = target(for: route.pattern, visitor: visitor, photo: "a1",
                                    readOnly: route.method == .GET || route.method == .HEAD || route.method == .OPTIONS)
                var headers: HTTPHeaders = ["Host": host, "Origin": "http://" + host]
                if let cookie = visitor.cookie { headers.add("Cookie", cookie) }
                let answer = f.request(route.method, target, headers: headers)
                let context = "\(route.method) \(target) as \(visitor) for Host \(host)"
                XCTAssertEqual(answer.status, .misdirectedRequest, context + ": " + answer.text.prefix(200))
                XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json", context)
                XCTAssertTrue(answer.text.contains("allowed hosts"), context + ": " + answer.text.prefix(200))
                assertNothingOfAPhoto(answer, context)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 700)
    }

    func testTheNamesThisServerAnswersToAreServedInAnySpelling() {
        // The fixture lists photos.test; loopback names and addresses are always this server's.
        for host in ["photos.test", "PHOTOS.test:8080", "photos.test.", "localhost", "localhost:9", "127.0.0.1:8080", "[::1]:8080"] {
            XCTAssertEqual(f.request(.GET, "/healthz", headers: ["Host": host]).status, .ok, host)
        }
    }
}
