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
}
