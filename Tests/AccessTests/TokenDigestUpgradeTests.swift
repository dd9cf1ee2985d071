import SQL
import SQLTesting
import XCTest
@testable import Access

/// A database an older version left (access schema at step 6: Argon2id token digests, libargon2's
/// password hashes) opened by this one, on SQLite and PostgreSQL: everything it held goes on working.
final class TokenDigestUpgradeTests: XCTestCase {
    static let cheap = PasswordHash.Parameters(passes: 1, memoryKiB: 64)
    static let now = 1_800_000_000
    static let password = "correct horse battery staple"

    /// What the older version stored: an owner, a share link with a password, a session of each,
    /// and a setup token; the tokens as the browser and the log hold them.
    struct Before {
        let session: String
        let linkSession: String
        let link: String
        let setup: String
        let shareID: Int
    }

    private func writeAsTheOlderVersion(_ database: SQLDatabase) throws -> Before {
        let steps = AccessSchema.schema.migrations.filter { $0.version <= 6 }
        _ = try database.migrate(SQLSchema(name: AccessSchema.schema.name, migrations: steps))
        let hash = CryptoTests.libargon2Hashes[0]
        let now = Self.now
        let before = Before(session: try AccessToken.make(), linkSession: try AccessToken.make(), link: try AccessToken.make(),
                            setup: try AccessToken.make(), shareID: 0)
        let userID = try database.scalar("""
            INSERT INTO users (name, role, password_hash, created_at, password_changed_at)
            VALUES ('ana', 'owner', \(hash), \(now), \(now)) RETURNING id
            """, as: Int.self) ?? 0
        let shareID = try database.scalar("""
            INSERT INTO shares (token, folder_id, created_by, created_at, expires_at, password_hash, download, comments, location)
            VALUES (\(before.link), 1, \(userID), \(now), NULL, \(hash), 0, 1, 0) RETURNING id
            """, as: Int.self) ?? 0
        for (token, user, share) in [(before.session, userID as Int?, nil as Int?), (before.linkSession, nil, shareID)] {
            try database.run("""
                INSERT INTO sessions (digest, user_id, share_id, created_at, last_seen, expires_at)
                VALUES (\(LegacyTokenDigest.digest(token)), \(user), \(share), \(now), \(now), \(now + 86_400))
                """)
        }
        try database.run("INSERT INTO setup_tokens (digest, created_at) VALUES (\(LegacyTokenDigest.digest(before.setup)), \(now))")
        return Before(session: before.session, linkSession: before.linkSession, link: before.link, setup: before.setup, shareID: shareID)
    }

    private func storedDigests(_ database: SQLDatabase, _ table: String) throws -> [String: String] {
        var found: [String: String] = [:]
        for row in try database.query("SELECT digest, digest_scheme FROM \(raw: table)") {
            found[try row.decode(0, as: String.self)] = try row.decode(1, as: String.self)
        }
        return found
    }

    func testSessionsLinksAndPasswordsMadeBeforeWorkAfterTheUpgradeAndAreRewritten() throws {
        try SQLTestDatabase.forEachEngine { place in
            let database = try place.open()
            defer { database.close() }
            let before = try writeAsTheOlderVersion(database)
            let store = try AccessStore(database: database, passwordParameters: Self.cheap, now: { Self.now + 10 })
            XCTAssertEqual(try AccessStore.countLegacyDigests(in: database), 3, place.name)

            // A password libargon2 hashed still signs in.
            XCTAssertEqual(try store.authenticate(name: "ana", password: Self.password)?.name, "ana", place.name)
            XCTAssertNil(try store.authenticate(name: "ana", password: "correct horse battery"), place.name)

            // A wrong token is refused, and rewrites nothing.
            XCTAssertNil(try store.session(token: try AccessToken.make()), place.name)
            XCTAssertEqual(try AccessStore.countLegacyDigests(in: database), 3, place.name)

            // The signed-in session: found under its old digest, rewritten to the keyed one.
            let session = try XCTUnwrap(try store.session(token: before.session), place.name)
            XCTAssertEqual(session.user?.name, "ana")
            XCTAssertEqual(session.digest, store.digest(of: before.session))
            XCTAssertEqual(try storedDigests(database, "sessions")[store.digest(of: before.session)], "blake2b-keyed", place.name)
            XCTAssertNil(try storedDigests(database, "sessions")[LegacyTokenDigest.digest(before.session)], place.name)
            XCTAssertEqual(try store.session(token: before.session)?.user?.name, "ana", place.name)

            // The link (kept as it is) and its password, and the session its password opened.
            let share = try XCTUnwrap(try store.share(token: before.link), place.name)
            XCTAssertEqual(share.id, before.shareID)
            XCTAssertTrue(store.verifyPassword(Self.password, of: share), place.name)
            XCTAssertEqual(try store.session(token: before.linkSession)?.holder, .share(id: before.shareID), place.name)
            XCTAssertTrue(try store.hasSession(digest: store.digest(of: before.linkSession)), place.name)

            // The setup token is found (and refused only because an owner exists, not as unknown).
            XCTAssertThrowsError(try store.checkSetup(token: before.setup)) {
                XCTAssertEqual(($0 as? AccessError)?.kind, .conflict, place.name)
            }
            XCTAssertEqual(try storedDigests(database, "setup_tokens"), [store.digest(of: before.setup): "blake2b-keyed"], place.name)

            // Nothing of the old scheme is left, so the old digest is no longer even computed.
            XCTAssertEqual(try AccessStore.countLegacyDigests(in: database), 0, place.name)
            XCTAssertFalse(store.legacyDigestsLeft.withLock { $0 }, place.name)

            // Another replica on the same database has the same key, and finds the same sessions.
            let replica = try AccessStore(database: database, passwordParameters: Self.cheap, now: { Self.now + 20 })
            XCTAssertEqual(replica.digest(of: before.session), store.digest(of: before.session), place.name)
            XCTAssertEqual(try replica.session(token: before.session)?.user?.name, "ana", place.name)

            try store.endSession(token: before.session)
            XCTAssertNil(try replica.session(token: before.session), place.name)
        }
    }

    /// Signing out of a session an older version stored, never used since the upgrade, ends it.
    func testSigningOutOfAnOldSessionEndsIt() throws {
        try SQLTestDatabase.forEachEngine { place in
            let database = try place.open()
            defer { database.close() }
            let before = try writeAsTheOlderVersion(database)
            let store = try AccessStore(database: database, passwordParameters: Self.cheap, now: { Self.now + 10 })
            try store.endSession(token: before.session)
            XCTAssertNil(try store.session(token: before.session), place.name)
            XCTAssertEqual(try store.sessionCount(), 1, place.name)
        }
    }

    /// New tokens are stored under the keyed digest alone, and a fresh database gets a key of its own.
    func testNewTokensAreStoredUnderTheKeyedDigest() throws {
        try SQLTestDatabase.forEachEngine { place in
            let database = try place.open()
            defer { database.close() }
            let store = try AccessStore(database: database, passwordParameters: Self.cheap, now: { Self.now })
            let ana = try store.addUser(name: "ana", password: Self.password, role: .owner)
            let token = try store.startSession(for: ana)
            let setup = try store.makeSetupToken()
            XCTAssertEqual(try storedDigests(database, "sessions"), [store.digest(of: token): "blake2b-keyed"], place.name)
            XCTAssertEqual(try storedDigests(database, "setup_tokens"), [store.digest(of: setup): "blake2b-keyed"], place.name)
            XCTAssertNotEqual(store.digest(of: token), LegacyTokenDigest.digest(token))
            XCTAssertFalse(store.legacyDigestsLeft.withLock { $0 }, place.name)
            let other = try SQLTestDatabase.sqlite()
            defer { other.remove() }
            let otherDatabase = try other.open()
            defer { otherDatabase.close() }
            XCTAssertNotEqual(try AccessStore(database: otherDatabase, passwordParameters: Self.cheap).digest(of: token), store.digest(of: token))
        }
    }
}
