import Observability
import Comments
import Foundation
import HTTP
import XCTest
@testable import App

/// The comment routes, each case run in-process through the server's `Responder` and against a live server (see
/// `TestingSetup`); more cases over sockets are in CommentLiveTests.
final class CommentRouteTests: XCTestCase {
    func testPostAnswers201WithTheStoredCommentAndALocationThatResolves() throws {
        try each { fixture in
            let response = fixture.postJSON(3, #"{"text":"Looks like a Pip","author":"Ana"}"#)
            XCTAssertEqual(response.status, .created, response.text)
            XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
            let body = response.object
            let id = try XCTUnwrap(body["id"] as? Int)
            XCTAssertEqual(body["photoId"] as? Int, 3)
            XCTAssertEqual(body["author"] as? String, "Ana")
            XCTAssertEqual(body["text"] as? String, "Looks like a Pip")
            XCTAssertNotNil((body["createdAt"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression))
            XCTAssertTrue(response.text.hasPrefix("{\"id\":\(id),\"photoId\":3,\"author\":"), "keys in the documented order: \(response.text)")
            let location = try XCTUnwrap(response.headers["Location"])
            XCTAssertEqual(location, "/photos/3/comments/\(id)")
            let shown = fixture.respond(.GET, location)
            XCTAssertEqual(shown.status, .ok)
            XCTAssertEqual(shown.text, response.text)
            XCTAssertEqual(fixture.service.commentCount(photoID: 3), 1)
            XCTAssertEqual(fixture.metrics.counter("photoscroll_comment_posts_total", help: "").value([("status", "201")]), 1)
        }
    }

    func testListIsOldestFirstAndPagesWithAfterAndLimit() throws {
        try each { fixture in
            var ids: [Int] = []
            for i in 0..<60 {
                ids.append(try XCTUnwrap(fixture.postJSON(2, "{\"text\":\"n\(i)\"}").object["id"] as? Int))
            }
            _ = fixture.postJSON(4, #"{"text":"another photo"}"#)
            func page(_ query: String) -> [Int] {
                let response = fixture.respond(.GET, "/photos/2/comments\(query)")
                XCTAssertEqual(response.status, .ok, response.text)
                return (response.object["comments"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            }
            XCTAssertEqual(page(""), Array(ids.prefix(50)), "default limit 50, oldest first")
            XCTAssertEqual(page("?limit=200"), ids)
            XCTAssertEqual(page("?limit=5&after=\(ids[54])"), Array(ids[55...59]))
            XCTAssertEqual(page("?after=\(ids[59])"), [])
            XCTAssertEqual(page("?after=0&limit=1"), [ids[0]])
            XCTAssertEqual(fixture.respond(.GET, "/photos/5/comments").text, #"{"comments":[]}"#)
            XCTAssertEqual(fixture.respond(.GET, "/photos/2/comments?limit=20").headers["Link"],
                           "</photos/2/comments?after=\(ids[19])&limit=20>; rel=\"next\"", "a full page links to the next")
            XCTAssertNil(fixture.respond(.GET, "/photos/2/comments?limit=200").headers["Link"], "the last page links nowhere")
            for bad in ["limit=0", "limit=201", "limit=abc", "limit=-1", "limit=", "limit=1.5", "after=x", "after=-3", "after=1e3"] {
                let response = fixture.respond(.GET, "/photos/2/comments?\(bad)")
                XCTAssertEqual(response.status, .badRequest, bad)
                XCTAssertEqual(response.headers["Content-Type"], "application/problem+json", bad)
            }
        }
    }

    func testIdsThatAreNotPositiveDecimalsAndUnknownPhotosAre404() throws {
        try each { fixture in
            for path in ["/photos/0/comments", "/photos/-1/comments", "/photos/abc/comments", "/photos/03/comments",
                         "/photos/+3/comments", "/photos/99999999999999999999/comments", "/photos/9/comments",
                         "/photos/3/comments/0", "/photos/3/comments/x", "/photos/3/comments/12", "/photos/9/comments/events"] {
                let response = fixture.respond(.GET, path)
                XCTAssertEqual(response.status, .notFound, path)
                XCTAssertEqual(response.object["status"] as? Int, 404, path)
            }
            XCTAssertEqual(fixture.postJSON(9, #"{"text":"hi"}"#).status, .notFound)
            XCTAssertEqual(fixture.postJSON(0, #"{"text":"hi"}"#).status, .notFound)
        }
    }

    func testValidationFailuresAreProblemDetailsNamingTheField() throws {
        try each { fixture in
            let cases: [(String, HTTPStatus, String)] = [
                (#"{"text":"#, .badRequest, "not valid JSON"),
                (#"{"text":42}"#, .badRequest, "text must be a string"),
                (#"{"text":"hi","author":7}"#, .badRequest, "author must be a string"),
                (#"{"text":"   "}"#, .badRequest, "text must not be empty"),
                ("{\"text\":\"\(String(repeating: "x", count: 2001))\"}", .badRequest, "2001 characters"),
                ("{\"text\":\"x\",\"author\":\"\(String(repeating: "x", count: 81))\"}", .badRequest, "81 characters"),
            ]
            for (body, status, detail) in cases {
                let response = fixture.postJSON(1, body)
                XCTAssertEqual(response.status, status, body)
                XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
                XCTAssertEqual((response.object["detail"] as? String)?.contains(detail), true, "\(body): \(response.text)")
            }
            let plain = fixture.respond(.POST, "/photos/1/comments", headers: ["Content-Type": "text/plain"], body: Array("hi".utf8))
            XCTAssertEqual(plain.status, .unsupportedMediaType)
            XCTAssertEqual(fixture.service.commentCount(photoID: 1), 0, "nothing invalid was stored")
            XCTAssertEqual(fixture.metrics.counter("photoscroll_comment_posts_total", help: "").value([("status", "400")]), 6)
            XCTAssertEqual(fixture.metrics.counter("photoscroll_comment_posts_total", help: "").value([("status", "415")]), 1)
        }
    }

    func testAFormPostRedirectsBackToThePhotoUnlessJSONIsPreferred() throws {
        try each { fixture in
            let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded",
                                     "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]
            let redirect = fixture.respond(.POST, "/photos/4/comments", headers: form, body: Array("text=Pip%3F&author=Ana".utf8))
            XCTAssertEqual(redirect.status, .seeOther)
            XCTAssertEqual(redirect.headers["Location"], "/#/photos/4")
            XCTAssertEqual(try fixture.store.list(photoID: 4, after: nil, limit: 10).map(\.text), ["Pip?"])

            let json = fixture.respond(.POST, "/photos/4/comments",
                                       headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                                       body: Array("text=second".utf8))
            XCTAssertEqual(json.status, .created)
            XCTAssertEqual(json.object["author"] as? String, "Anonymous")
        }
    }

    func testTheRateLimitAnswers429WithRetryAfterPerClient() throws {
        try each(setups: [.router], perMinute: 3) { fixture in
            for i in 0..<3 { XCTAssertEqual(fixture.postJSON(1, "{\"text\":\"\(i)\"}").status, .created) }
            let limited = fixture.postJSON(1, #"{"text":"one too many"}"#)
            XCTAssertEqual(limited.status, .tooManyRequests)
            XCTAssertEqual(limited.headers["Retry-After"], "20")
            XCTAssertEqual(fixture.postJSON(1, #"{"text":"from elsewhere"}"#, from: "192.0.2.99").status, .created)
            fixture.advance(seconds: 20)
            XCTAssertEqual(fixture.postJSON(1, #"{"text":"later"}"#).status, .created)
            XCTAssertEqual(fixture.service.commentCount(photoID: 1), 5)
            XCTAssertEqual(fixture.metrics.counter("photoscroll_comment_posts_total", help: "").value([("status", "429")]), 1)
        }
    }

    func testBehindATrustedProxyEachForwardedClientHasItsOwnLimit() throws {
        try each(setups: [.router], perMinute: 1, trustedProxies: "10.0.0.1") { fixture in
            XCTAssertEqual(fixture.postJSON(1, #"{"text":"a"}"#, from: "10.0.0.1", forwardedFor: "203.0.113.1").status, .created)
            XCTAssertEqual(fixture.postJSON(1, #"{"text":"b"}"#, from: "10.0.0.1", forwardedFor: "203.0.113.2").status, .created)
            XCTAssertEqual(fixture.postJSON(1, #"{"text":"c"}"#, from: "10.0.0.1", forwardedFor: "203.0.113.1").status, .tooManyRequests)
            XCTAssertEqual(fixture.postJSON(1, #"{"text":"d"}"#, from: "198.51.100.9", forwardedFor: "203.0.113.3").status, .created)
            XCTAssertEqual(fixture.postJSON(1, #"{"text":"e"}"#, from: "198.51.100.9", forwardedFor: "203.0.113.4").status, .tooManyRequests,
                           "an untrusted peer cannot dodge the limit by inventing addresses")
        }
    }

    func testDeletionNeedsTheAdminToken() throws {
        try each { disabled in
            let id = try XCTUnwrap(disabled.postJSON(1, #"{"text":"stays"}"#).object["id"] as? Int)
            XCTAssertEqual(disabled.respond(.DELETE, "/photos/1/comments/\(id)", headers: ["Authorization": "Bearer x"]).status, .forbidden)
        }
        try each(adminToken: "t0ken") { fixture in
            let target = try XCTUnwrap(fixture.postJSON(1, #"{"text":"goes"}"#).object["id"] as? Int)
            let missing = fixture.respond(.DELETE, "/photos/1/comments/\(target)")
            XCTAssertEqual(missing.status, .unauthorized)
            XCTAssertNotNil(missing.headers["WWW-Authenticate"])
            XCTAssertEqual(fixture.respond(.DELETE, "/photos/1/comments/\(target)", headers: ["Authorization": "Bearer t0keN"]).status, .unauthorized)
            XCTAssertEqual(fixture.respond(.DELETE, "/photos/2/comments/\(target)", headers: ["Authorization": "Bearer t0ken"]).status, .notFound,
                           "the comment must be under that photo")
            let deleted = fixture.respond(.DELETE, "/photos/1/comments/\(target)", headers: ["Authorization": "Bearer t0ken"])
            XCTAssertEqual(deleted.status, .noContent)
            XCTAssertEqual(deleted.body, [])
            XCTAssertEqual(fixture.respond(.GET, "/photos/1/comments/\(target)").status, .notFound)
            XCTAssertEqual(fixture.respond(.DELETE, "/photos/1/comments/\(target)", headers: ["Authorization": "Bearer t0ken"]).status, .notFound)
            XCTAssertEqual(fixture.service.commentCount(photoID: 1), 0)
        }
    }

    /// Guessing the admin token over the wire: after five wrong tokens the client gets 429 with
    /// Retry-After, as problem+json, and nothing is compared until the wait is over.
    func testGuessingTheAdminTokenIsThrottled() throws {
        try each(adminToken: "t0ken") { fixture in
            let target = try XCTUnwrap(fixture.postJSON(1, #"{"text":"stays"}"#).object["id"] as? Int)
            for guess in 0..<5 {
                let wrong = fixture.respond(.DELETE, "/photos/1/comments/\(target)", headers: ["Authorization": "Bearer guess\(guess)"])
                XCTAssertEqual(wrong.status, .unauthorized, "guess \(guess)")
            }
            let refused = fixture.respond(.DELETE, "/photos/1/comments/\(target)", headers: ["Authorization": "Bearer t0ken"])
            XCTAssertEqual(refused.status, .tooManyRequests)
            XCTAssertEqual(refused.headers["Retry-After"], "12")
            XCTAssertEqual(refused.headers["Content-Type"], "application/problem+json")
            XCTAssertEqual(fixture.service.commentCount(photoID: 1), 1)
            fixture.advance(seconds: 12)
            XCTAssertEqual(fixture.respond(.DELETE, "/photos/1/comments/\(target)", headers: ["Authorization": "Bearer t0ken"]).status, .noContent)
        }
    }

    func testTextIsNeverTurnedIntoHTML() throws {
        try each { fixture in
            let text = "<img src=x onerror=alert(1)> \"quoted\" \\ </script>"
            let response = fixture.postJSON(1, "{\"text\":\(jsonString(text))}")
            XCTAssertEqual(response.object["text"] as? String, text, "stored and returned as given, only JSON-escaped")
            XCTAssertTrue(response.text.contains(#"<img src=x onerror=alert(1)> \"quoted\" \\ </script>"#), response.text)
            XCTAssertEqual(response.headers["X-Content-Type-Options"], "nosniff")
        }
    }

    func testAStoppedServiceAnswers503() throws {
        try each { fixture in
            fixture.service.stop()
            let response = fixture.postJSON(1, #"{"text":"too late"}"#)
            XCTAssertEqual(response.status, .serviceUnavailable)
            XCTAssertEqual(response.headers["Retry-After"], "1")
        }
    }

    /// Runs `body` with a fresh fixture per setup, in-process and over a live socket. Tests that
    /// speak for several client addresses run in-process only: a live client is always loopback.
    private func each(setups: [TestingSetup] = TestingSetup.allCases, perMinute: Int = 0, adminToken: String = "",
                      trustedProxies: String = "", _ body: (CommentClient) throws -> Void) throws {
        for setup in setups {
            let fixture = CommentFixture(perMinute: perMinute, adminToken: adminToken, trustedProxies: trustedProxies)
            try test(fixture.router, [setup]) { client in try body(CommentClient(fixture: fixture, client: client)) }
        }
    }
}
