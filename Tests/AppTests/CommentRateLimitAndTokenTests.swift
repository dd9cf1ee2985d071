import HTTP
import Synchronization
import XCTest
@testable import App

/// The token bucket and the admin token check, with a clock moved by hand.
final class CommentRateLimitAndTokenTests: XCTestCase {
    func testABurstOfPerMinuteThenOneEveryInterval() {
        let clock = ManualClock()
        let limiter = CommentRateLimiter(perMinute: 10, now: { clock.now })
        for _ in 0..<10 { XCTAssertEqual(limiter.take(for: "a"), .allowed) }
        XCTAssertEqual(limiter.take(for: "a"), .limited(retryAfterSeconds: 6), "10 a minute refills one token every 6 s")
        XCTAssertEqual(limiter.take(for: "b"), .allowed, "clients have their own buckets")
        clock.advance(4)
        XCTAssertEqual(limiter.take(for: "a"), .limited(retryAfterSeconds: 2))
        clock.advance(2)
        XCTAssertEqual(limiter.take(for: "a"), .allowed)
        XCTAssertEqual(limiter.take(for: "a"), .limited(retryAfterSeconds: 6))
        clock.advance(3600)
        for _ in 0..<10 { XCTAssertEqual(limiter.take(for: "a"), .allowed, "a long pause refills only up to the burst") }
        XCTAssertNotEqual(limiter.take(for: "a"), .allowed)
    }

    func testZeroTurnsTheLimitOff() {
        let limiter = CommentRateLimiter(perMinute: 0, now: { 0 })
        for _ in 0..<1000 { XCTAssertEqual(limiter.take(for: "a"), .allowed) }
        XCTAssertEqual(limiter.trackedClients, 0)
    }

    func testRetryAfterIsAWholeNumberOfSecondsRoundedUp() {
        let limiter = CommentRateLimiter(perMinute: 7, now: { 0 })
        for _ in 0..<7 { _ = limiter.take(for: "a") }
        XCTAssertEqual(limiter.take(for: "a"), .limited(retryAfterSeconds: 9), "60/7 = 8.57 s rounds up")
    }

    func testFullBucketsArePrunedSoMemoryStaysBounded() {
        let clock = ManualClock()
        let limiter = CommentRateLimiter(perMinute: 60, pruneThreshold: 100, now: { clock.now })
        for i in 0..<100 { _ = limiter.take(for: "client\(i)") }
        clock.advance(120)
        _ = limiter.take(for: "one more")
        XCTAssertLessThanOrEqual(limiter.trackedClients, 2)
    }

    func testAdminToken() {
        XCTAssertEqual(AdminToken("").isEnabled, false)
        XCTAssertThrowsError(try AdminToken("").authorize("Bearer anything")) { XCTAssertEqual(($0 as? HTTPResponseError)?.status.rawValue, 403) }
        let token = AdminToken("s3cret-token")
        XCTAssertNoThrow(try token.authorize("Bearer s3cret-token"))
        XCTAssertNoThrow(try token.authorize("bearer   s3cret-token "))
        for header in [nil, "", "Bearer", "Bearer ", "Basic czNjcmV0LXRva2Vu", "Bearer s3cret-toke", "Bearer s3cret-tokenX", "Bearer S3CRET-TOKEN"] {
            XCTAssertThrowsError(try token.authorize(header), String(describing: header)) { error in
                let error = error as? HTTPResponseError
                XCTAssertEqual(error?.status.rawValue, 401)
                XCTAssertEqual(error?.headers["WWW-Authenticate"]?.hasPrefix("Bearer"), true)
            }
        }
        XCTAssertTrue(AdminToken.constantTimeEquals(Array("abc".utf8), Array("abc".utf8)))
        XCTAssertFalse(AdminToken.constantTimeEquals(Array("abd".utf8), Array("abc".utf8)))
        XCTAssertFalse(AdminToken.constantTimeEquals(Array("ab".utf8), Array("abc".utf8)))
        XCTAssertFalse(AdminToken.constantTimeEquals(Array("abc\0".utf8), Array("abc".utf8)))
        XCTAssertFalse(AdminToken.constantTimeEquals([], Array("abc".utf8)))
    }

    func testForwardedForIsBelievedOnlyFromTrustedProxies() {
        func request(from remote: String, _ forwarded: [String]) -> HTTPRequest {
            HTTPRequest(method: .POST, target: "/", headers: HTTPHeaders(forwarded.map { ("X-Forwarded-For", $0) }), remoteAddress: remote)
        }
        let none = ClientAddress(trustedProxies: "")
        XCTAssertEqual(none.of(request(from: "198.51.100.7", ["203.0.113.1"])), "198.51.100.7", "no proxy configured: the header is ignored")

        let proxies = ClientAddress(trustedProxies: " 10.0.0.1, 10.0.0.2 ,")
        XCTAssertEqual(proxies.trustedProxies, ["10.0.0.1", "10.0.0.2"])
        XCTAssertEqual(proxies.of(request(from: "198.51.100.7", ["203.0.113.1"])), "198.51.100.7", "not from a proxy: ignored")
        XCTAssertEqual(proxies.of(request(from: "10.0.0.1", ["203.0.113.1"])), "203.0.113.1")
        XCTAssertEqual(proxies.of(request(from: "10.0.0.1", ["6.6.6.6, 203.0.113.1, 10.0.0.2"])), "203.0.113.1",
                       "the right-most untrusted hop; what the client wrote itself on the left is not believed")
        XCTAssertEqual(proxies.of(request(from: "10.0.0.1", ["6.6.6.6", "203.0.113.1"])), "203.0.113.1", "repeated headers are one list")
        XCTAssertEqual(proxies.of(request(from: "10.0.0.1", [])), "10.0.0.1")
    }
}
