import Access
import Foundation
@testable import App
import SQL
import XCTest

/// Event streams end with the access they were opened with: a sign-out, a password change, an
/// account removed, a link revoked or expired, a session's lifetime or idle limit. Each test
/// opens streams on a live socket (SQLite, changes heard in-process), ends one access, and
/// checks that its streams end and that a comment posted after never reaches them, while a
/// stream of an access still live does get it.
final class AccessStreamTests: XCTestCase {
    private var f: AccessFixture!
    private var probe: StreamProbe!

    override func setUpWithError() throws {
        f = try AccessFixture {
            $0.sessionIdleSeconds = 600
            $0.accessCacheSeconds = 1
        }
        probe = try StreamProbe(f)
    }

    override func tearDown() {
        probe?.stop()
        f?.close()
    }

    private var a1: Int { f.photos["a1"]! }

    private func open(_ target: String, cookie: String? = nil, line: UInt = #line) throws -> EventStreamReader {
        try probe.open(target, cookie: cookie, line: line)
    }

    private func comment(_ text: String, cookie: String, reaching live: EventStreamReader, line: UInt = #line) {
        StreamProbe.comment(text, on: a1, through: f, cookie: cookie, reaching: live, line: line)
    }

    private func assertEnded(_ streams: [EventStreamReader], without text: String, _ why: String, line: UInt = #line) {
        StreamProbe.assertEnded(streams, without: text, why, line: line)
    }

    func testSigningOutEndsTheStreamsOfThatSession() throws {
        let laptop = try f.signIn("ana", AccessFixture.ownerPassword)
        let phone = try f.signIn("ana", AccessFixture.ownerPassword)
        let photos = try open("/photos/events", cookie: laptop)
        let thread = try open("/photos/\(a1)/comments/events", cookie: laptop)
        let other = try open("/photos/\(a1)/comments/events", cookie: phone)
        comment("before sign-out", cookie: phone, reaching: thread)

        XCTAssertEqual(f.request(.DELETE, "/session", headers: ["Cookie": laptop]).status, .noContent)
        comment("after sign-out", cookie: phone, reaching: other)
        assertEnded([photos, thread], without: "after sign-out", "signed out")
        XCTAssertFalse(other.ended, "the same person's other session goes on")
    }

    func testAPasswordChangeEndsEveryStreamOfThePerson() throws {
        let laptop = try f.signIn("ben", AccessFixture.memberPassword)
        let phone = try f.signIn("ben", AccessFixture.memberPassword)
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let streams = [try open("/photos/events", cookie: laptop), try open("/photos/\(a1)/comments/events", cookie: phone)]
        let witness = try open("/photos/\(a1)/comments/events", cookie: owner)

        let changed = f.post("/session/password", json: #"{"current":"battery staple","new":"a whole new password"}"#, cookie: laptop)
        XCTAssertEqual(changed.status, .noContent)
        comment("after the change", cookie: owner, reaching: witness)
        assertEnded(streams, without: "after the change", "the password changed")
    }

    func testRemovingAnAccountEndsItsStreams() throws {
        let member = try f.signIn("ben", AccessFixture.memberPassword)
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let streams = [try open("/photos/events", cookie: member), try open("/photos/\(a1)/comments/events", cookie: member)]
        let witness = try open("/photos/\(a1)/comments/events", cookie: owner)

        // As `photoscroll users remove` does: the store, whose change is heard as any other,
        // once its notification arrives; what is written after that never reaches the streams.
        try f.store.removeUser(name: "ben")
        assertEnded(streams, without: "after the removal", "the account is gone")
        comment("after the removal", cookie: owner, reaching: witness)
        assertEnded(streams, without: "after the removal", "the account is gone")
    }

    func testRevokingALinkEndsItsStreamsAndThoseOfItsPassword() throws {
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let trip = f.folders["trip"]!
        let link = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil))
        let locked = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil, password: "open sesame"))
        let kept = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil))
        let unlocked = f.post("/s/\(locked.token)/unlock", json: #"{"password":"open sesame"}"#)
        let key = try XCTUnwrap(AccessFixture.cookie(unlocked), unlocked.text)
        let revoked = [try open("/s/\(link.token)/photos/events"), try open("/s/\(link.token)/photos/\(a1)/comments/events"),
                       try open("/s/\(locked.token)/photos/\(a1)/comments/events", cookie: key)]
        let witness = try open("/s/\(kept.token)/photos/\(a1)/comments/events")

        for share in [link, locked] {
            XCTAssertEqual(f.request(.DELETE, "/shares/\(share.id)", headers: ["Cookie": owner]).status, .noContent)
        }
        comment("after the revocation", cookie: owner, reaching: witness)
        assertEnded(revoked, without: "after the revocation", "the link is revoked")
    }

    func testStreamsEndWhenTheirLinkExpiresOrTheirSessionRunsOut() throws {
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let member = try f.signIn("ben", AccessFixture.memberPassword)
        let link = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: f.clock.wall + 60))
        let shared = try open("/s/\(link.token)/photos/\(a1)/comments/events")
        let signedIn = try open("/photos/\(a1)/comments/events", cookie: member)

        // Nothing is notified when a link expires: its time passing is enough.
        f.clock.advance(by: 61)
        assertEnded([shared], without: "after the expiry", "the link expired")
        XCTAssertFalse(signedIn.ended, "the session has not run out")

        // The owner keeps using the session; an open stream is no use of one, so the idle limit
        // (600 s here) ends the member's. (A page in use reconnects, counted from its last use.)
        f.clock.advance(by: 300)
        XCTAssertEqual(f.request(.GET, "/photos", headers: ["Cookie": owner]).status, .ok)
        let witness = try open("/photos/\(a1)/comments/events", cookie: owner)
        f.clock.advance(by: 300)
        comment("after the expiry", cookie: owner, reaching: witness)
        assertEnded([signedIn], without: "after the expiry", "the session was idle too long")
    }

    func testAPasswordChangedByAnotherProcessEndsStreamsOnSQLiteToo() throws {
        let member = try f.signIn("ben", AccessFixture.memberPassword)
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let streams = [try open("/photos/events", cookie: member), try open("/photos/\(a1)/comments/events", cookie: member)]
        let witness = try open("/photos/\(a1)/comments/events", cookie: owner)

        // `photoscroll users` runs in a process of its own: on SQLite its notification reaches
        // nobody, so the server finds the change by asking, as often as its cache asks (1 s here).
        let other = try SQLDatabase(f.store.database.location)
        defer { other.close() }
        try AccessStore(database: other, passwordParameters: PasswordHash.Parameters(passes: 1, memoryKiB: 64))
            .setPassword(name: "ben", password: "changed elsewhere")
        assertEnded(streams, without: "after the change", "the password changed in another process")
        comment("after the change", cookie: owner, reaching: witness)
        assertEnded(streams, without: "after the change", "the password changed in another process")
        XCTAssertFalse(witness.ended, "the owner's stream goes on")
    }
}
