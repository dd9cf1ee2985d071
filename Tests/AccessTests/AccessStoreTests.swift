import Foundation
import SQL
import SQLTesting
import Synchronization
import XCTest
@testable import Access

/// The store on SQLite and on PostgreSQL, with a clock the test moves.
final class AccessStoreTests: XCTestCase {
    /// Cheap hashes: the parameters are the store's to choose, and the tests check behaviour.
    static let cheap = PasswordHash.Parameters(passes: 1, memoryKiB: 64)

    final class TestClock: Sendable {
        let seconds = Atomic(1_800_000_000)
        func advance(_ by: Int) { seconds.add(by, ordering: .relaxed) }
        var now: Int { seconds.load(ordering: .relaxed) }
    }

    private func forEachEngine(limits: SessionLimits = SessionLimits(),
                               _ body: (AccessStore, TestClock, SQLTestDatabase) throws -> Void) throws {
        try SQLTestDatabase.forEachEngine { place in
            let clock = TestClock()
            let database = try place.open()
            defer { database.close() }
            let store = try AccessStore(database: database, limits: limits, passwordParameters: Self.cheap, now: { clock.now })
            try body(store, clock, place)
        }
    }

    func testUsersAreAddedListedAndRefusedWithReasons() throws {
        try forEachEngine { store, _, place in
            let ana = try store.addUser(name: "Ana", password: "correct horse", role: .owner)
            try store.addUser(name: "Ben Okafor", password: "battery staple", role: .member)
            XCTAssertEqual(try store.users().map(\.name), ["Ana", "Ben Okafor"], place.name)
            XCTAssertEqual(try store.user(named: "Ana"), ana)
            XCTAssertTrue(try store.hasOwner())
            XCTAssertThrowsError(try store.addUser(name: "Ana", password: "another long one", role: .member)) {
                XCTAssertEqual(($0 as? AccessError)?.kind, .conflict)
            }
            XCTAssertThrowsError(try store.addUser(name: "Cy", password: "short", role: .member)) {
                XCTAssertEqual(($0 as? AccessError)?.description, "The password must be at least 10 characters long; it has 5.")
            }
            XCTAssertThrowsError(try store.addUser(name: "a/b", password: "long enough pass", role: .member))
            XCTAssertThrowsError(try store.addUser(name: "", password: "long enough pass", role: .member))
            XCTAssertEqual(try store.users().count, 2)
        }
    }

    func testAuthenticationTakesTheRightPasswordOnly() throws {
        try forEachEngine { store, _, _ in
            try store.addUser(name: "Ana", password: "correct horse", role: .owner)
            XCTAssertEqual(try store.authenticate(name: "Ana", password: "correct horse")?.name, "Ana")
            XCTAssertNil(try store.authenticate(name: "Ana", password: "correct horsE"))
            XCTAssertNil(try store.authenticate(name: "Nobody", password: "correct horse"))
        }
    }

    func testASessionEndsWhenIdleAtItsLifetimeOnSignOutAndOnAPasswordChange() throws {
        let limits = SessionLimits(idleSeconds: 3_600, lifetimeSeconds: 86_400)
        try forEachEngine(limits: limits) { store, clock, place in
            let ana = try store.addUser(name: "Ana", password: "correct horse", role: .owner)
            // Idle: seen every 50 minutes it lives on; an hour unseen ends it.
            let busy = try store.startSession(for: ana)
            for _ in 0..<5 {
                clock.advance(3_000)
                XCTAssertEqual(try store.session(token: busy)?.user?.name, "Ana", place.name)
            }
            let idle = try store.startSession(for: ana)
            clock.advance(3_600)
            XCTAssertNil(try store.session(token: idle), "idle for an hour")
            // Absolute: however busy, over a day after it began it is over.
            clock.advance(86_400 - 5 * 3_000 - 3_600 + 1)
            XCTAssertNil(try store.session(token: busy), "past its lifetime")

            let signedOut = try store.startSession(for: ana)
            XCTAssertNotNil(try store.session(token: signedOut))
            try store.endSession(token: signedOut)
            XCTAssertNil(try store.session(token: signedOut))

            let first = try store.startSession(for: ana), second = try store.startSession(for: ana)
            try store.setPassword(name: "Ana", password: "a new password")
            XCTAssertNil(try store.session(token: first))
            XCTAssertNil(try store.session(token: second))
            XCTAssertNotNil(try store.authenticate(name: "Ana", password: "a new password"))
            XCTAssertNil(try store.authenticate(name: "Ana", password: "correct horse"))
            // Only digests are stored: no token appears in the table.
            let stored = try store.database.query("SELECT digest FROM sessions").map { try $0.decode(0, as: String.self) }
            XCTAssertFalse(stored.contains(first) || stored.contains(second))
        }
    }

    func testRemovingAUserEndsItsSessionsAndItsLinks() throws {
        try forEachEngine { store, _, _ in
            let ana = try store.addUser(name: "Ana", password: "correct horse", role: .owner)
            let session = try store.startSession(for: ana)
            let share = try store.createShare(ShareRequest(target: .album(2), expiresAt: nil), by: ana)
            try store.removeUser(name: "Ana")
            XCTAssertNil(try store.session(token: session))
            XCTAssertNil(try store.share(token: share.token))
            XCTAssertThrowsError(try store.removeUser(name: "Ana")) { XCTAssertEqual(($0 as? AccessError)?.kind, .notFound) }
        }
    }

    func testSharesAreMadeListedAndRevokedWithTheirPasswordSessions() throws {
        try forEachEngine { store, clock, place in
            let ana = try store.addUser(name: "Ana", password: "correct horse", role: .owner)
            let album = try store.createShare(ShareRequest(target: .album(7), expiresAt: clock.now + 60, download: true), by: ana)
            let photo = try store.createShare(ShareRequest(target: .photo(3), expiresAt: nil, password: "open sesame", comments: false,
                                                           location: true), by: ana)
            XCTAssertEqual(try store.shares().map(\.id), [photo.id, album.id], place.name)
            XCTAssertEqual(try store.share(token: album.token), album)
            XCTAssertEqual(try store.share(token: photo.token)?.target, .photo(3))
            XCTAssertTrue(photo.hasPassword)
            XCTAssertTrue(store.verifyPassword("open sesame", of: photo))
            XCTAssertFalse(store.verifyPassword("open sesamE", of: photo))
            XCTAssertFalse(store.verifyPassword("anything", of: album))
            XCTAssertTrue(album.isLive(at: clock.now + 59))
            XCTAssertFalse(album.isLive(at: clock.now + 60))
            XCTAssertTrue(photo.isLive(at: Int.max))
            XCTAssertThrowsError(try store.createShare(ShareRequest(target: .photo(3), expiresAt: clock.now), by: ana))

            let unlocked = try store.startSession(forShare: photo)
            XCTAssertEqual(try store.session(token: unlocked)?.holder, .share(id: photo.id))
            XCTAssertTrue(try store.revokeShare(id: photo.id))
            XCTAssertFalse(try store.revokeShare(id: photo.id))
            XCTAssertNil(try store.share(token: photo.token))
            XCTAssertNil(try store.session(token: unlocked), "a revoked link's password sessions end with it")
            XCTAssertNil(try store.share(token: "not a token"))
        }
    }

    func testASetupTokenMakesOneOwnerOnce() throws {
        try forEachEngine { store, _, _ in
            let first = try store.makeSetupToken(), second = try store.makeSetupToken()
            XCTAssertTrue(try store.hasSetupToken())
            XCTAssertThrowsError(try store.completeSetup(token: first, name: "Ana", password: "short"))
            XCTAssertThrowsError(try store.completeSetup(token: try AccessToken.make(), name: "Ana", password: "correct horse")) {
                XCTAssertEqual(($0 as? AccessError)?.kind, .notFound)
            }
            let owner = try store.completeSetup(token: first, name: "Ana", password: "correct horse")
            XCTAssertEqual(owner.role, .owner)
            XCTAssertThrowsError(try store.completeSetup(token: first, name: "Eve", password: "correct horse")) {
                XCTAssertEqual(($0 as? AccessError)?.kind, .notFound, "used once")
            }
            XCTAssertThrowsError(try store.completeSetup(token: second, name: "Eve", password: "correct horse"),
                                 "every other setup token ends once an owner exists")
            XCTAssertFalse(try store.hasSetupToken())
            XCTAssertEqual(try store.users().map(\.name), ["Ana"])
        }
    }

    func testEndingThingsAndNewAccountsAreNotifiedToEveryListener() throws {
        try forEachEngine { store, _, place in
            let heard = Mutex<[AccessChange]>([])
            let connected = DispatchSemaphore(value: 0), arrived = DispatchSemaphore(value: 0)
            let other = try place.open()
            defer { other.close() }
            let listener = try (place.engine == .sqlite ? store.database : other).listen([AccessChange.channel]) { event in
                switch event {
                case .connected: connected.signal()
                case .notification(let note):
                    if let change = AccessChange(payload: note.payload) { heard.withLock { $0.append(change) } }
                    arrived.signal()
                case .disconnected: break
                }
            }
            defer { listener.stop() }
            XCTAssertEqual(connected.wait(timeout: .now() + 30), .success)
            let ana = try store.addUser(name: "Ana", password: "correct horse", role: .owner)
            let token = try store.startSession(for: ana)
            let share = try store.createShare(ShareRequest(target: .album(1), expiresAt: nil), by: ana)
            try store.endSession(token: token)
            try store.revokeShare(id: share.id)
            try store.setPassword(name: "Ana", password: "a new password")
            // A new account is told too: the names that belong to accounts changed.
            let expected: [AccessChange] = [.added(ana.id), .session(store.digest(of: token)), .share(share.id), .user(ana.id)]
            for _ in expected { XCTAssertEqual(arrived.wait(timeout: .now() + 30), .success) }
            XCTAssertEqual(heard.withLock { $0 }, expected, place.name)
        }
    }

    /// A name nobody has is refused after one Argon2 verification at the store's parameters,
    /// as a wrong password is: timing tells no one which names exist.
    func testAnUnknownNameIsRefusedAfterTheWorkOfAWrongPassword() throws {
        let place = try SQLTestDatabase.sqlite()
        defer { place.remove() }
        let database = try place.open()
        defer { database.close() }
        let verified = Mutex<[String]>([])
        let store = try AccessStore(database: database, passwordParameters: PasswordHash.Parameters(passes: 2, memoryKiB: 16 * 1024),
                                    verifying: { hash in verified.withLock { $0.append(hash) } })
        try store.addUser(name: "Ana", password: "correct horse", role: .owner)
        /// The hashes one refusal of `name` verified against.
        func refusal(_ name: String) throws -> [String] {
            verified.withLock { $0 = [] }
            XCTAssertNil(try store.authenticate(name: name, password: "wrong password"))
            return verified.withLock { $0 }
        }
        let wrong = try refusal("Ana")
        // The first, which makes the decoy, and one after it.
        for unknown in [try refusal("Nobody"), try refusal("Nobody")] {
            XCTAssertEqual(unknown.count, 1, "one verification, as for a wrong password: \(unknown)")
            XCTAssertEqual(unknown.map(Self.cost), wrong.map(Self.cost), "at the same cost")
            XCTAssertEqual(unknown.map(Self.cost), ["argon2id m=16384,t=2"], "the store's parameters")
            XCTAssertNotEqual(unknown, wrong, "against a decoy, not Ana's hash")
        }
    }

    /// The algorithm and cost a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) names.
    private static func cost(_ encoded: String) -> String {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6 else { return "not a PHC string: \(encoded)" }
        let cost = fields[3].split(separator: ",").filter { $0.hasPrefix("m=") || $0.hasPrefix("t=") }
        return "\(fields[1]) " + cost.joined(separator: ",")
    }
}
