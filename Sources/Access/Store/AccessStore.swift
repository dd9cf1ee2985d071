import Foundation
import Observability
import SQL
import Synchronization

/// Accounts, sessions, share links and setup links in a SQL database (SQLite or PostgreSQL),
/// shared by every replica and by `photoscroll users`.
///
/// Every change that ends something (a sign-out, a password change, a removed user, a revoked
/// link) or adds an account is notified on `AccessChange.channel` in the same transaction, so
/// each process drops what it kept of it as the change commits. Passwords are hashed before a transaction opens:
/// Argon2 takes a quarter of a second and must not hold a connection or a lock meanwhile.
///
/// Tokens are found by their keyed digest (`TokenDigest`) under the key kept in the database
/// (`token_digest_key`). A row an older version wrote holds `LegacyTokenDigest` instead
/// (`digest_scheme` `argon2id`): while any may be left, a token not found under its keyed digest
/// is looked for under the old one, and its row rewritten to the keyed digest as it is found.
public final class AccessStore: Sendable {
    public let database: SQLDatabase
    public let limits: SessionLimits
    /// Wall-clock unix seconds, shared across machines (a monotonic clock is not).
    let now: @Sendable () -> Int
    let passwordParameters: PasswordHash.Parameters
    /// The digest tokens are looked up by.
    let tokenDigest: TokenDigest
    /// Whether a row of the old digest scheme may be left: false once none is, for good, since
    /// nothing writes one any more.
    let legacyDigestsLeft: Mutex<Bool>
    /// A hash to verify against when no user has the name given, so that signing in as nobody
    /// takes as long as signing in with a wrong password. Made on first use.
    private let decoy = Mutex<String?>(nil)
    /// Told of each hash a password is checked against, as it is about to be: what a refusal
    /// did, for the tests (`@testable`), which cannot tell it by its time on a busy machine.
    let verifying: (@Sendable (_ encoded: String) -> Void)?

    /// A session is written back as seen at most this often: its idle limit is far longer.
    static let touchSeconds = 60

    /// Opens the tables in `database`, bringing their schema up to date.
    public convenience init(database: SQLDatabase, limits: SessionLimits = SessionLimits(), passwordParameters: PasswordHash.Parameters = .passwords,
                            now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }) throws {
        try self.init(database: database, limits: limits, passwordParameters: passwordParameters, now: now, verifying: nil)
    }

    init(database: SQLDatabase, limits: SessionLimits = SessionLimits(), passwordParameters: PasswordHash.Parameters = .passwords,
         now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) },
         verifying: (@Sendable (_ encoded: String) -> Void)?) throws {
        self.verifying = verifying
        self.database = database
        self.limits = limits
        self.passwordParameters = passwordParameters
        self.now = now
        try database.migrate(AccessSchema.schema)
        tokenDigest = TokenDigest(key: try Self.tokenDigestKey(in: database))
        legacyDigestsLeft = Mutex(try Self.countLegacyDigests(in: database) > 0)
    }

    // MARK: users

    /// Adds an account; the name must be free and the password long enough.
    @discardableResult
    public func addUser(name: String, password: String, role: Role) throws -> User {
        try Credentials.checkName(name)
        try Credentials.checkPassword(password)
        let hash = try PasswordHash.make(password, parameters: passwordParameters)
        let now = self.now()
        return try database.transaction { tx in
            if try tx.first("SELECT id FROM users WHERE name = \(name)") != nil {
                throw AccessError(.conflict, "There is already a user named \(name).")
            }
            let id = try tx.scalar("""
                INSERT INTO users (name, role, password_hash, created_at, password_changed_at)
                VALUES (\(name), \(role.rawValue), \(hash), \(now), \(now)) RETURNING id
                """, as: Int.self) ?? 0
            try tx.notify(channel: AccessChange.channel, payload: AccessChange.added(id).payload)
            return User(id: id, name: name, role: role, passwordHash: hash, createdAt: now)
        }
    }

    /// Every account, by name.
    public func users() throws -> [User] {
        try database.query("SELECT id, name, role, password_hash, created_at FROM users ORDER BY name").map(Self.user)
    }

    /// Every account's name, and nothing else of it.
    public func userNames() throws -> [String] {
        try database.query("SELECT name FROM users ORDER BY name").map { try $0.decode(0, as: String.self) }
    }

    /// The account named `name`, or nil.
    public func user(named name: String) throws -> User? {
        try database.query("SELECT id, name, role, password_hash, created_at FROM users WHERE name = \(name)").first.map(Self.user)
    }

    /// Whether any account is an owner.
    public func hasOwner() throws -> Bool {
        try database.scalar("SELECT COUNT(*) FROM users WHERE role = \(Role.owner.rawValue)", as: Int.self) ?? 0 > 0
    }

    /// Sets a new password and ends every session of the account, on every replica.
    public func setPassword(name: String, password: String) throws {
        try Credentials.checkPassword(password)
        let hash = try PasswordHash.make(password, parameters: passwordParameters)
        let now = self.now()
        try database.transaction { tx in
            guard let id = try tx.scalar("SELECT id FROM users WHERE name = \(name)", as: Int.self) else {
                throw AccessError(.notFound, "There is no user named \(name).")
            }
            try tx.run("UPDATE users SET password_hash = \(hash), password_changed_at = \(now) WHERE id = \(id)")
            try tx.run("DELETE FROM sessions WHERE user_id = \(id)")
            try tx.notify(channel: AccessChange.channel, payload: AccessChange.user(id).payload)
        }
    }

    /// Removes an account, its sessions and the share links it made, on every replica.
    public func removeUser(name: String) throws {
        try database.transaction { tx in
            guard let id = try tx.scalar("SELECT id FROM users WHERE name = \(name)", as: Int.self) else {
                throw AccessError(.notFound, "There is no user named \(name).")
            }
            let shares = try tx.query("SELECT id FROM shares WHERE created_by = \(id)").map { try $0.decode(0, as: Int.self) }
            for share in shares {
                try tx.run("DELETE FROM sessions WHERE share_id = \(share)")
                try tx.run("DELETE FROM shares WHERE id = \(share)")
                try tx.notify(channel: AccessChange.channel, payload: AccessChange.share(share).payload)
            }
            try tx.run("DELETE FROM sessions WHERE user_id = \(id)")
            try tx.run("DELETE FROM users WHERE id = \(id)")
            try tx.notify(channel: AccessChange.channel, payload: AccessChange.user(id).payload)
        }
    }

    /// The account when `password` is its password; nil otherwise. A name nobody has is refused
    /// after the same work as a wrong password, one Argon2id verification at this store's
    /// parameters (against a decoy hash), so its time does not tell that nobody has it.
    public func authenticate(name: String, password: String) throws -> User? {
        guard let user = try user(named: name) else {
            _ = check(password, against: try decoyHash())
            return nil
        }
        return check(password, against: user.passwordHash) ? user : nil
    }

    /// Whether `password` is `user`'s (for a change of password, which asks for the old one).
    public func verify(_ password: String, of user: User) -> Bool {
        check(password, against: user.passwordHash)
    }

    /// Every password this store checks is checked here.
    func check(_ password: String, against encoded: String) -> Bool {
        verifying?(encoded)
        return PasswordHash.verify(password, against: encoded)
    }

    func decoyHash() throws -> String {
        if let made = decoy.withLock({ $0 }) { return made }
        let made = try PasswordHash.make(try AccessToken.make(), parameters: passwordParameters)
        decoy.withLock { $0 = $0 ?? made }
        return made
    }

    static func user(_ row: SQLRow) throws -> User {
        let roleText = try row.decode(2, as: String.self)
        return User(id: try row.decode(0), name: try row.decode(1), role: Role(rawValue: roleText) ?? .member,
                    passwordHash: try row.decode(3), createdAt: try row.decode(4))
    }
}
