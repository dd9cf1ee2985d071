import Foundation
import SQL
import SQLTesting
import Synchronization
import XCTest
@testable import Comments

/// The rate limit kept in the database: one bucket per client, whichever replica asks.
final class SQLCommentRateLimiterTests: XCTestCase {
    private final class Clock: Sendable {
        private let seconds = Mutex(1_795_948_262.0)
        var now: Double { seconds.withLock { $0 } }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    func testTwoReplicasDrawOnOneBucketPerClient() throws {
        try SQLTestDatabase.forEachEngine { place in
            let clock = Clock()
            let db = try place.open()
            defer { db.close() }
            _ = try db.migrate(CommentSchema.schema)
            let other = try place.open()
            defer { other.close() }
            let a = SQLCommentRateLimiter(database: db, perMinute: 10, now: { clock.now })
            let b = SQLCommentRateLimiter(database: other, perMinute: 10, now: { clock.now })
            for i in 0..<10 { XCTAssertNil(try (i % 2 == 0 ? a : b).take(for: "198.51.100.7"), "\(place.engine) take \(i)") }
            XCTAssertEqual(try a.take(for: "198.51.100.7"), 6, "10 a minute refills one token every 6 s (\(place.engine))")
            XCTAssertEqual(try b.take(for: "198.51.100.7"), 6, "the other replica sees the same empty bucket")
            XCTAssertNil(try b.take(for: "203.0.113.1"), "clients have their own buckets")
            clock.advance(4)
            XCTAssertEqual(try a.take(for: "198.51.100.7"), 2)
            clock.advance(2)
            XCTAssertNil(try b.take(for: "198.51.100.7"))
            XCTAssertEqual(try a.take(for: "198.51.100.7"), 6)
            clock.advance(3600)
            for _ in 0..<10 { XCTAssertNil(try a.take(for: "198.51.100.7"), "a long pause refills only up to the burst") }
            XCTAssertNotNil(try b.take(for: "198.51.100.7"))
        }
    }

    func testConcurrentTakesNeverHandOutMoreThanTheBucketHolds() throws {
        try SQLTestDatabase.forEachEngine { place in
            let clock = Clock()
            let handles = try (0..<2).map { _ in try place.open() }
            defer { handles.forEach { $0.close() } }
            _ = try handles[0].migrate(CommentSchema.schema)
            let limiters = handles.map { SQLCommentRateLimiter(database: $0, perMinute: 7, now: { clock.now }) }
            let allowed = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for _ in 0..<5 where (try? limiters[worker % 2].take(for: "c")) == .some(nil) {
                    allowed.add(1, ordering: .relaxed)
                }
            }
            XCTAssertEqual(allowed.load(ordering: .relaxed), 7, "\(place.engine)")
        }
    }

    func testRetryAfterRoundsUpAndIdleBucketsArePruned() throws {
        try SQLTestDatabase.forEachEngine { place in
            let clock = Clock()
            let db = try place.open()
            defer { db.close() }
            _ = try db.migrate(CommentSchema.schema)
            let limiter = SQLCommentRateLimiter(database: db, perMinute: 7, now: { clock.now })
            for _ in 0..<7 { _ = try limiter.take(for: "a") }
            XCTAssertEqual(try limiter.take(for: "a"), 9, "60/7 = 8.57 s rounds up")
            for i in 0..<20 { _ = try limiter.take(for: "client\(i)") }
            XCTAssertEqual(limiter.trackedClients, 21)
            clock.advance(SQLCommentRateLimiter.idleSeconds + 1)
            _ = try limiter.take(for: "fresh")
            limiter.prune()
            XCTAssertEqual(limiter.trackedClients, 1, "full buckets behave as absent ones and are dropped")
            XCTAssertNil(try SQLCommentRateLimiter(database: db, perMinute: 0).take(for: "a"), "0 turns the limit off")
        }
    }
}
