import Access
import Foundation
@testable import App
@testable import HTTP
import XCTest

/// What the page asks before it shows anything (who is looking, whether a setup link is still
/// good), and the one password rule that links share with accounts.
final class SessionAndSetupTests: XCTestCase {
    func testOnAPublicLibrarySessionSaysWhoIsLookingWithoutAnError() throws {
        let open = try AccessFixture { $0.access = "public" }
        defer { open.close() }
        let visitor = open.request(.GET, "/session", remoteAddress: "192.0.2.4")
        XCTAssertEqual(visitor.status, .ok, visitor.text)
        XCTAssertEqual(visitor.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertEqual(visitor.headers["Cache-Control"], "no-store")
        XCTAssertEqual(visitor.text, #"{"access":"public","role":"visitor","setup":false,"manage":false}"#)
        XCTAssertEqual(open.request(.GET, "/session", headers: ["Host": "localhost:8080"]).object["manage"] as? Bool, true,
                       "this machine may change photos")
        XCTAssertEqual(open.request(.GET, "/session").object["manage"] as? Bool, false, "a loopback peer naming photos.test is not this machine")
        let cookie = try open.signIn("ben", AccessFixture.memberPassword)
        XCTAssertEqual(open.request(.GET, "/session", headers: ["Cookie": cookie]).text, #"{"username":"ben","role":"member"}"#,
                       "a signed-in person's answer keeps its shape")

        let closed = try AccessFixture()
        defer { closed.close() }
        let stranger = closed.request(.GET, "/session")
        XCTAssertEqual(stranger.status, .unauthorized, "a private library's stranger is still told to sign in")
        XCTAssertEqual(stranger.object["access"] as? String, "private")
    }

    func testTheSetupCheckSaysWhetherALinkIsGoodWithoutUsingItAndCountsWrongOnes() throws {
        let empty = try AccessFixture()
        defer { empty.close() }
        try empty.store.removeUser(name: "ana")
        let token = try empty.store.makeSetupToken()
        func check(_ token: String, from address: String = "127.0.0.1") -> TestResponse {
            empty.post("/setup/check", json: "{\"token\":\"\(token)\"}", remoteAddress: address)
        }
        XCTAssertEqual(check(token).status, .noContent)
        XCTAssertEqual(check(token).status, .noContent, "checking uses nothing up")
        XCTAssertEqual(empty.post("/setup", json: "{\"token\":\"\(token)\",\"username\":\"zoe\",\"password\":\"zoe's long password\"}").status,
                       .noContent, "the link still makes the owner after being checked")
        let spent = check(token)
        XCTAssertEqual(spent.status, .forbidden, spent.text)
        XCTAssertEqual(spent.headers["Content-Type"], "application/problem+json")
        XCTAssertTrue((spent.object["detail"] as? String ?? "").contains("used already"), spent.text)

        // Wrong tokens are guesses, throttled as the setup form's are: the sixth is refused, right or not.
        let other = try AccessFixture()
        defer { other.close() }
        try other.store.removeUser(name: "ana")
        let good = try other.store.makeSetupToken()
        for _ in 1...5 {
            XCTAssertEqual(other.post("/setup/check", json: "{\"token\":\"\(try AccessToken.make())\"}", remoteAddress: "203.0.113.7").status,
                           .forbidden)
        }
        let throttled = other.post("/setup/check", json: "{\"token\":\"\(good)\"}", remoteAddress: "203.0.113.7")
        XCTAssertEqual(throttled.status, .tooManyRequests)
        XCTAssertNotNil(throttled.headers["Retry-After"])
        XCTAssertEqual(other.post("/setup/check", json: "{\"token\":\"\(good)\"}", remoteAddress: "198.51.100.1").status, .noContent)
    }

    func testALinksPasswordFollowsTheAccountsRule() throws {
        let f = try AccessFixture()
        defer { f.close() }
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let album = f.folders["trip"]!
        for password in ["", "short", String(repeating: "x", count: Credentials.minimumPasswordLength - 1)] {
            let refused = f.post("/shares", json: "{\"folder\":\(album),\"password\":\"\(password)\"}", cookie: owner)
            XCTAssertEqual(refused.status, .unprocessableContent, "\"\(password)\": \(refused.text)")
            XCTAssertEqual(refused.headers["Content-Type"], "application/problem+json")
            XCTAssertTrue((refused.object["detail"] as? String ?? "").contains("at least \(Credentials.minimumPasswordLength) characters"),
                          refused.text)
        }
        XCTAssertEqual(try f.store.shares().count, 0, "no link was made")
        let made = f.post("/shares", json: "{\"folder\":\(album),\"password\":\"open sesame\"}", cookie: owner)
        XCTAssertEqual(made.status, .created, made.text)
        XCTAssertEqual(made.object["password"] as? Bool, true)
        XCTAssertThrowsError(try f.share(ShareRequest(target: .folder(album), expiresAt: nil, password: "short")), "the store keeps the rule too")
    }
}
