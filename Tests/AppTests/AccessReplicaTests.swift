@testable import Access
import Foundation
@testable import App
import SQL
import SQLTesting
import TestSupport
import XCTest

/// Two replicas of one library on one PostgreSQL database, each with its own memory of
/// sessions and links (kept for a minute, longer than this test waits): what one ends, the
/// other refuses as soon as the change is heard, long before anything it kept would run out.
final class AccessReplicaTests: XCTestCase {
    /// How long the other replica may take to hear a change: the notification's way through
    /// PostgreSQL, on a loaded machine (it takes milliseconds when the machine is idle). Under
    /// the minute its memory would otherwise last, so what is refused within it was heard.
    static let heard = 30.0

    func testWhatOneReplicaEndsTheOtherRefusesAtOnce() throws {
        let database = try SQLTestDatabase.postgres()
        defer { database.remove() }
        func replica(users: Bool) throws -> AccessFixture {
            try AccessFixture(users: users) {
                $0.database = database.postgresURL!.description
                $0.accessCacheSeconds = 60
            }
        }
        let a = try replica(users: true)
        defer { a.close() }
        let b = try replica(users: false)
        defer { b.close() }

        // Signed in on A, seen (and kept) by B.
        let cookie = try a.signIn("ana", AccessFixture.ownerPassword)
        XCTAssertEqual(b.request(.GET, "/photos", headers: ["Cookie": cookie]).status, .ok)
        // B keeps nothing until it hears notifications (its LISTEN is up, A's earlier changes are
        // heard): wait for that, asking again, rather than for a time.
        XCTAssertTrue(eventually(timeout: Self.heard) {
            b.request(.GET, "/photos", headers: ["Cookie": cookie]).status == .ok && b.access.cache.count.sessions == 1
        }, "B keeps the session")
        var epoch = b.access.cache.epoch
        XCTAssertEqual(a.request(.DELETE, "/session", headers: ["Cookie": cookie]).status, .noContent)
        XCTAssertTrue(b.access.cache.waitForDrop(after: epoch, seconds: Self.heard), "B hears the sign-out")
        XCTAssertEqual(b.request(.GET, "/photos", headers: ["Cookie": cookie]).status, .unauthorized, "a sign-out on A ends the session on B")

        // A link made on A, opened on B, revoked on A.
        let link = try a.share(ShareRequest(target: .folder(a.folders["trip"]!), expiresAt: nil))
        XCTAssertEqual(b.request(.GET, "/s/\(link.token)/photos").status, .ok)
        XCTAssertEqual(b.access.cache.count.shares, 1)
        let owner = try a.signIn("ana", AccessFixture.ownerPassword)
        epoch = b.access.cache.epoch
        XCTAssertEqual(a.request(.DELETE, "/shares/\(link.id)", headers: ["Cookie": owner]).status, .noContent)
        XCTAssertEqual(a.request(.GET, "/s/\(link.token)/photos").status, .notFound, "on A at once")
        XCTAssertTrue(b.access.cache.waitForDrop(after: epoch, seconds: Self.heard), "B hears the revocation")
        XCTAssertEqual(b.request(.GET, "/s/\(link.token)/photos").status, .notFound, "a revocation on A reaches B")

        // A password changed by `photoscroll users passwd` (the store, from any process) ends
        // the sessions every replica kept.
        let member = try b.signIn("ben", AccessFixture.memberPassword)
        XCTAssertEqual(a.request(.GET, "/photos", headers: ["Cookie": member]).status, .ok)
        XCTAssertEqual(b.request(.GET, "/photos", headers: ["Cookie": member]).status, .ok)
        let other = try database.open()
        defer { other.close() }
        let (epochA, epochB) = (a.access.cache.epoch, b.access.cache.epoch)
        try AccessStore(database: other, passwordParameters: PasswordHash.Parameters(passes: 1, memoryKiB: 64))
            .setPassword(name: "ben", password: "a brand new password")
        XCTAssertTrue(a.access.cache.waitForDrop(after: epochA, seconds: Self.heard))
        XCTAssertTrue(b.access.cache.waitForDrop(after: epochB, seconds: Self.heard))
        XCTAssertEqual(a.request(.GET, "/photos", headers: ["Cookie": member]).status, .unauthorized)
        XCTAssertEqual(b.request(.GET, "/photos", headers: ["Cookie": member]).status, .unauthorized,
                       "a password changed elsewhere ends the sessions both replicas kept")
    }
}
