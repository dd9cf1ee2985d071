@testable import Access
import Comments
import Dispatch
import Foundation
@testable import App
@testable import HTTP
import Synchronization
import XCTest

/// Names are not accounts: a signed-in person's comment is theirs, under their account name and
/// marked verified; nobody else may take an account's name, however it is spelled.
final class CommentAuthorTests: XCTestCase {
    /// A public library with accounts ana (owner) and ben (member).
    var f: AccessFixture!
    var a1: Int { f.photos["a1"]! }

    override func setUpWithError() throws {
        f = try AccessFixture {
            $0.access = "public"
            $0.commentsPerMinute = 100
        }
    }

    override func tearDown() {
        f?.close()
        f = nil
    }

    private func post(_ author: String, cookie: String? = nil, under prefix: String = "", on fixture: AccessFixture? = nil) -> TestResponse {
        let body = String(decoding: try! JSONSerialization.data(withJSONObject: ["text": "Looks like a Pip", "author": author]), as: UTF8.self)
        let on = fixture ?? f!
        return on.post("\(prefix)/photos/\(on.photos["a1"]!)/comments", json: body, cookie: cookie)
    }

    func testASignedInPersonsCommentCarriesTheirAccountNameAndIsVerifiedEverywhereItShows() throws {
        let heard = Mutex<[String]>([]), arrived = DispatchSemaphore(value: 0)
        f.application.comments.store.onChange { event in
            heard.withLock { $0.append(event.serverSentEvent) }
            arrived.signal()
        }
        let member = try f.signIn("ben", AccessFixture.memberPassword)
        let signed = post("Mallory", cookie: member)
        XCTAssertEqual(signed.status, .created, signed.text)
        XCTAssertEqual(signed.object["author"] as? String, "ben", "the account's name, whatever was typed")
        XCTAssertEqual(signed.object["verified"] as? Bool, true)
        let typed = post("Grandma")
        XCTAssertEqual(typed.status, .created, typed.text)
        XCTAssertEqual(typed.object["verified"] as? Bool, false)

        let thread = f.request(.GET, "/photos/\(a1)/comments").object["comments"] as? [[String: Any]] ?? []
        XCTAssertEqual(thread.map { $0["author"] as? String }, ["ben", "Grandma"])
        XCTAssertEqual(thread.map { $0["verified"] as? Bool }, [true, false], "stored with the comment")
        let id = try XCTUnwrap(signed.object["id"] as? Int)
        XCTAssertEqual(f.request(.GET, "/photos/\(a1)/comments/\(id)").object["verified"] as? Bool, true)
        for _ in 0..<2 { XCTAssertEqual(arrived.wait(timeout: .now() + 30), .success, "the live events") }
        let events = heard.withLock { $0 }
        XCTAssertTrue(events[0].contains("\"author\":\"ben\"") && events[0].contains("\"verified\":true"), events[0])
        XCTAssertTrue(events[1].contains("\"verified\":false"), events[1])
    }

    func testSomeoneNotSignedInIsRefusedAnAccountsNameHoweverItIsSpelled() throws {
        for name in ["ana", "Ana", "ＡＮＡ", "ana ", " BEN", "Ｂｅｎ"] {
            let refused = post(name)
            XCTAssertEqual(refused.status, .unprocessableContent, name)
            XCTAssertEqual(refused.headers["Content-Type"], "application/problem+json", name)
            let detail = refused.object["detail"] as? String ?? ""
            XCTAssertTrue(detail.contains("belongs to an account of this library"), detail)
            XCTAssertTrue(detail.contains("Sign in") && detail.contains("choose another name"), detail)
        }
        XCTAssertEqual(f.request(.GET, "/photos/\(a1)/comments").text, #"{"comments":[]}"#, "nothing was stored")
        for name in ["Anna", "Grandma", ""] {
            let taken = post(name)
            XCTAssertEqual(taken.status, .created, "\(name): \(taken.text)")
            XCTAssertEqual(taken.object["verified"] as? Bool, false, name)
        }
    }

    func testALinksHolderIsRefusedAnAccountsNameAndASignedInHolderPostsAsTheirAccount() throws {
        let library = try AccessFixture()
        defer { library.close() }
        let link = try library.share(ShareRequest(target: .folder(library.folders["trip"]!), expiresAt: nil))
        let under = "/s/\(link.token)"
        let refused = post("Ana", under: under, on: library)
        XCTAssertEqual(refused.status, .unprocessableContent, refused.text)
        XCTAssertTrue((refused.object["detail"] as? String ?? "").contains("belongs to an account of this library"))
        let typed = post("Grandma", under: under, on: library)
        XCTAssertEqual(typed.status, .created, typed.text)
        XCTAssertEqual(typed.object["verified"] as? Bool, false)
        let member = try library.signIn("ben", AccessFixture.memberPassword)
        let signed = post("Grandpa", cookie: member, under: under, on: library)
        XCTAssertEqual(signed.status, .created, signed.text)
        XCTAssertEqual(signed.object["author"] as? String, "ben")
        XCTAssertEqual(signed.object["verified"] as? Bool, true)
    }

    func testANameIsAnAccountsFromTheMomentTheAccountIsMadeUntilItIsRemoved() throws {
        XCTAssertEqual(post("Zoe").status, .created, "no account has it (and the names are kept now)")
        var epoch = f.access.cache.epoch
        try f.store.addUser(name: "zoe", password: "zoe's long password", role: .member)
        XCTAssertTrue(f.access.cache.waitForDrop(after: epoch, seconds: 30), "the new account is heard")
        XCTAssertEqual(post("Zoe").status, .unprocessableContent)
        epoch = f.access.cache.epoch
        try f.store.removeUser(name: "zoe")
        XCTAssertTrue(f.access.cache.waitForDrop(after: epoch, seconds: 30), "the removal is heard")
        XCTAssertEqual(post("Zoe").status, .created)
    }

    func testTryingNamesCountsAgainstTheCommentRateLimit() throws {
        let limited = try AccessFixture {
            $0.access = "public"
            $0.commentsPerMinute = 2
        }
        defer { limited.close() }
        XCTAssertEqual(post("ana", on: limited).status, .unprocessableContent)
        XCTAssertEqual(post("Zed", on: limited).status, .created)
        let third = post("ben", on: limited)
        XCTAssertEqual(third.status, .tooManyRequests, "whether a name is an account's is told no faster than comments are taken")
        XCTAssertFalse(third.text.contains("belongs to an account"), third.text)
    }
}
