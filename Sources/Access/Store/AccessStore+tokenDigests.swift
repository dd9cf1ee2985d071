import POSIX
import SQL

extension AccessStore {
    /// The key token digests are made under: the one stored in `database`, made there (32 bytes
    /// from the kernel) by the first process to ask. A second process racing the first inserts
    /// nothing and reads the first one's.
    static func tokenDigestKey(in database: SQLDatabase) throws -> [UInt8] {
        let fresh = TokenDigest.hex(try KernelRandom.bytes(TokenDigest.keyBytes))
        let stored = try database.transaction { tx in
            try tx.run("INSERT INTO token_digest_key (id, secret) VALUES (1, \(fresh)) ON CONFLICT (id) DO NOTHING")
            return try tx.scalar("SELECT secret FROM token_digest_key WHERE id = 1", as: String.self)
        }
        guard let stored, let key = TokenDigest.bytes(hex: stored), key.count == TokenDigest.keyBytes else {
            throw AccessError(.invalid, "The token digest key in the database (token_digest_key) is not \(TokenDigest.keyBytes) bytes of hex.")
        }
        return key
    }

    /// Rows whose digest is still the old scheme's, sessions and setup tokens together.
    static func countLegacyDigests(in database: SQLDatabase) throws -> Int {
        let legacy = TokenDigest.Scheme.argon2id.rawValue
        return try database.scalar("""
            SELECT (SELECT COUNT(*) FROM sessions WHERE digest_scheme = \(legacy))
                 + (SELECT COUNT(*) FROM setup_tokens WHERE digest_scheme = \(legacy))
            """, as: Int.self) ?? 0
    }

    /// The keyed digest of `token`, what every row is looked up by (and what `AccessChange.session` names).
    package func digest(of token: String) -> String {
        tokenDigest(token)
    }

    /// Rewrites the row of `table` (`sessions` or `setup_tokens`) that holds `token` under the
    /// old digest to hold `digest`, its keyed one, if there is such a row. Nothing is computed
    /// once no old row is left; a wrong token rewrites nothing.
    func upgradeLegacyDigest(of token: String, to digest: String, in table: LegacyDigestTable) throws {
        guard legacyDigestsLeft.withLock({ $0 }) else { return }
        let rewritten = try database.run("""
            UPDATE \(raw: table.rawValue) SET digest = \(digest), digest_scheme = \(TokenDigest.Scheme.keyedBLAKE2b.rawValue)
            WHERE digest = \(LegacyTokenDigest.digest(token)) AND digest_scheme = \(TokenDigest.Scheme.argon2id.rawValue)
            """) > 0
        if rewritten, try Self.countLegacyDigests(in: database) == 0 {
            legacyDigestsLeft.withLock { $0 = false }
        }
    }

    /// The tables whose rows hold token digests.
    enum LegacyDigestTable: String {
        case sessions
        case setupTokens = "setup_tokens"
    }
}
