import HTTP
import Observability
import Synchronization
import XCTest
@testable import Access
@testable import App

/// The token bucket and the admin token check, with a clock moved by hand.
final class CommentRateLimitAndTokenTests: XCTestCase {
    func testABurstOfPerMinuteThenOneEveryInterval() {
        let clock = ManualClock(seconds: 0)
        let limiter = CommentRateLimiter(perMinute: 10, now: { clock.now() })
        for _ in 0..<10 { XCTAssertEqual(limiter.take(for: "a"), .allowed) }
        XCTAssertEqual(limiter.take(for: "a"), .limited(retryAfterSeconds: 6), "10 a minute refills one token every 6 s")
        XCTAssertEqual(limiter.take(for: "b"), .allowed, "clients have their own buckets")
        clock.advance(by: 4)
        XCTAssertEqual(limiter.take(for: "a"), .limited(retryAfterSeconds: 2))
        clock.advance(by: 2)
        XCTAssertEqual(limiter.take(for: "a"), .allowed)
        XCTAssertEqual(limiter.take(for: "a"), .limited(retryAfterSeconds: 6))
        clock.advance(by: 3600)
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
        let clock = ManualClock(seconds: 0)
        let limiter = CommentRateLimiter(perMinute: 60, pruneThreshold: 100, now: { clock.now() })
        for i in 0..<100 { _ = limiter.take(for: "client\(i)") }
        clock.advance(by: 120)
        _ = limiter.take(for: "one more")
        XCTAssertLessThanOrEqual(limiter.trackedClients, 2)
    }

    func testAdminToken() {
        XCTAssertEqual(AdminToken("").isEnabled, false)
        XCTAssertThrowsError(try AdminToken("").authorize("Bearer anything", client: "192.0.2.1")) {
            XCTAssertEqual(($0 as? HTTPResponseError)?.status.rawValue, 403)
        }
        let token = AdminToken("s3cret-token", throttle: FailureThrottle(policy: .init(failures: 100)))
        XCTAssertNoThrow(try token.authorize("Bearer s3cret-token", client: "192.0.2.1"))
        XCTAssertNoThrow(try token.authorize("bearer   s3cret-token ", client: "192.0.2.1"))
        for header in [nil, "", "Bearer", "Bearer ", "Basic czNjcmV0LXRva2Vu", "Bearer s3cret-toke", "Bearer s3cret-tokenX", "Bearer S3CRET-TOKEN",
                       "Bearer s3cret-token\0"] {
            XCTAssertThrowsError(try token.authorize(header, client: "192.0.2.1"), String(describing: header)) { error in
                let error = error as? HTTPResponseError
                XCTAssertEqual(error?.status.rawValue, 401)
                XCTAssertEqual(error?.headers["WWW-Authenticate"]?.hasPrefix("Bearer"), true)
            }
        }
    }

    /// Guessing the admin token: a few wrong tokens, then 429 with Retry-After, and the right token
    /// is not even compared until the wait is over; another client is not held up.
    func testWrongAdminTokensAreThrottledPerClient() {
        let clock = ManualClock(seconds: 0)
        let token = AdminToken("s3cret-token", throttle: FailureThrottle(now: { clock.now() }))
        func status(_ header: String, from client: String = "192.0.2.1") -> (Int, String?) {
            do {
                try token.authorize(header, client: client)
                return (204, nil)
            } catch let error as HTTPResponseError {
                return (Int(error.status.rawValue), error.headers["Retry-After"])
            } catch { return (500, nil) }
        }
        for guess in 0..<5 { XCTAssertEqual(status("Bearer guess\(guess)").0, 401, "guess \(guess)") }
        XCTAssertEqual(status("Bearer guess5").0, 429)
        XCTAssertEqual(status("Bearer guess5").1, "12", "5 a minute: one more every 12 s")
        XCTAssertEqual(status("Bearer s3cret-token").0, 429, "while refused, even the right token is not compared")
        XCTAssertEqual(status("Bearer s3cret-token", from: "198.51.100.9").0, 204, "another client is not held up")
        clock.advance(by: 11)
        XCTAssertEqual(status("Bearer guess6").1, "1")
        clock.advance(by: 1)
        XCTAssertEqual(status("Bearer s3cret-token").0, 204)
        XCTAssertEqual(status("Bearer guess7").0, 401)
        XCTAssertEqual(status("Bearer guess8").0, 429, "the right token does not reset the client's count of guesses")
    }

    func testThrottleCountsAnIPv6ClientByItsSlash64() {
        let clock = ManualClock(seconds: 0)
        let throttle = FailureThrottle(policy: .init(failures: 3, seconds: 30), now: { clock.now() })
        for host in 1...3 { throttle.fail(FailureThrottle.keys(forClient: "2001:db8:1:2::\(host)")) }
        XCTAssertEqual(throttle.check(FailureThrottle.keys(forClient: "2001:db8:1:2:ffff::9")), .limited(retryAfterSeconds: 10))
        XCTAssertEqual(throttle.check(FailureThrottle.keys(forClient: "2001:db8:1:3::1")), .allowed, "the next /64 is someone else")
        XCTAssertEqual(throttle.check(FailureThrottle.keys(forClient: "192.0.2.1")), .allowed)
        clock.advance(by: 10)
        XCTAssertEqual(throttle.check(FailureThrottle.keys(forClient: "2001:db8:1:2::1")), .allowed)
    }

    func testThrottleKeepsAtMostMaxKeys() {
        let clock = ManualClock(seconds: 0)
        let throttle = FailureThrottle(policy: .init(failures: 5, seconds: 60, maxKeys: 100), now: { clock.now() })
        for i in 0..<100 { throttle.fail(["k\(i)"]) }
        for _ in 0..<5 { throttle.fail(["limited"]) }
        XCTAssertLessThanOrEqual(throttle.trackedKeys, 100)
        XCTAssertNotEqual(throttle.check(["limited"]), .allowed, "the lowest buckets go first; a refused key stays")
        clock.advance(by: 120)
        throttle.fail(["one more"])
        XCTAssertEqual(throttle.check(["limited"]), .allowed)
        XCTAssertLessThanOrEqual(throttle.trackedKeys, 100)
    }

    func testThrottleSuccessClearsOnlyTheKeysNamed() {
        let throttle = FailureThrottle(policy: .init(failures: 2), now: { 0 })
        throttle.fail(["user:ana", "client:192.0.2.1"])
        throttle.fail(["user:ana", "client:192.0.2.1"])
        XCTAssertNotEqual(throttle.check(["user:ana"]), .allowed)
        throttle.succeed(["user:ana"])
        XCTAssertEqual(throttle.check(["user:ana"]), .allowed)
        XCTAssertNotEqual(throttle.check(["user:ana", "client:192.0.2.1"]), .allowed, "refused while any key is")
    }

    func testClientKeys() {
        XCTAssertEqual(ClientKey.of("192.0.2.1"), "192.0.2.1")
        XCTAssertEqual(ClientKey.of("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64")
        XCTAssertEqual(ClientKey.of("2001:db8::1"), "2001:db8::/64")
        XCTAssertEqual(ClientKey.of("2001:0:0:1::1"), "2001:0:0:1::/64")
        XCTAssertEqual(ClientKey.of("::1"), "::/64")
        XCTAssertEqual(ClientKey.of("::ffff:198.51.100.7"), "198.51.100.7", "an IPv4-mapped address is its IPv4 address")
        XCTAssertEqual(ClientKey.of("not an address"), "not an address")
        XCTAssertEqual(ClientKey.of("fe80::1:2:3"), "fe80::/64")
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
