import Access
import Foundation
@testable import App
import SQLTesting
import XCTest

/// Two replicas on one PostgreSQL database, each keeping sessions and links for a minute:
/// streams open on A end when their access is ended through B (or by `photoscroll users` on
/// any machine), since only the notification can tell A, and a comment posted after reaches
/// a stream still live on A but none of the ended ones.
final class AccessStreamReplicaTests: XCTestCase {
    func testStreamsOnOneReplicaEndWithAccessEndedThroughTheOther() throws {
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
        let probe = try StreamProbe(a)
        defer { probe.stop() }
        try a.store.addUser(name: "cy", password: "a third long password", role: .member)
        let a1 = a.photos["a1"]!
        func thread(_ cookie: String? = nil, link: Share? = nil) throws -> EventStreamReader {
            try probe.open((link.map { "/s/\($0.token)" } ?? "") + "/photos/\(a1)/comments/events", cookie: cookie)
        }

        let owner = try a.signIn("ana", AccessFixture.ownerPassword)
        let leaving = try a.signIn("ana", AccessFixture.ownerPassword)
        let member = try a.signIn("ben", AccessFixture.memberPassword)
        let removed = try a.signIn("cy", "a third long password")
        let link = try a.share(ShareRequest(target: .folder(a.folders["trip"]!), expiresAt: nil))
        let ending = [try probe.open("/photos/events", cookie: leaving), try thread(leaving), try thread(member), try thread(removed),
                      try thread(link: link), try probe.open("/s/\(link.token)/photos/events")]
        let witness = try thread(owner)
        StreamProbe.comment("before", on: a1, through: b, cookie: owner, reaching: witness)

        // Through B: a sign-out, a password change, a revocation; from another process on the
        // database, as `photoscroll users remove` is: an account removed.
        XCTAssertEqual(b.request(.DELETE, "/session", headers: ["Cookie": leaving]).status, .noContent)
        XCTAssertEqual(b.post("/session/password", json: #"{"current":"battery staple","new":"a whole new password"}"#, cookie: member).status,
                       .noContent)
        XCTAssertEqual(b.request(.DELETE, "/shares/\(link.id)", headers: ["Cookie": owner]).status, .noContent)
        let other = try database.open()
        defer { other.close() }
        try AccessStore(database: other, passwordParameters: PasswordHash.Parameters(passes: 1, memoryKiB: 64))
            .removeUser(name: "cy")

        StreamProbe.assertEnded(ending, without: "after", "access ended on another replica")
        // Comments and access changes come on channels of their own, in no order between them:
        // the comment goes after the ends are seen.
        StreamProbe.comment("after", on: a1, through: b, cookie: owner, reaching: witness)
        StreamProbe.assertEnded(ending, without: "after", "access ended on another replica")
    }
}
