import SQL

extension AccessStore {
    /// A new one-time setup token, for a server that has no owner yet: whoever holds it may
    /// make the owner once. Each one is valid until an owner exists.
    public func makeSetupToken() throws -> String {
        let token = try AccessToken.make()
        let now = self.now()
        try database.run("""
            INSERT INTO setup_tokens (digest, digest_scheme, created_at)
            VALUES (\(digest(of: token)), \(TokenDigest.Scheme.keyedBLAKE2b.rawValue), \(now))
            """)
        return token
    }

    /// Makes the first owner with a setup token, which is used up with every other one. Throws
    /// `.notFound` for a token that is not (or no longer) valid, `.conflict` once an owner exists.
    public func completeSetup(token: String, name: String, password: String) throws -> User {
        try Credentials.checkName(name)
        try Credentials.checkPassword(password)
        guard AccessToken.isWellFormed(token) else { throw AccessError(.notFound, "This setup link is not valid.") }
        let digest = self.digest(of: token)
        try upgradeLegacyDigest(of: token, to: digest, in: .setupTokens)
        let hash = try PasswordHash.make(password, parameters: passwordParameters)
        let now = self.now()
        return try database.transaction(.serializable) { tx in
            guard try tx.run("DELETE FROM setup_tokens WHERE digest = \(digest)") > 0 else {
                throw AccessError(.notFound, "This setup link is not valid: it was used already, or was never made.")
            }
            if try tx.scalar("SELECT COUNT(*) FROM users WHERE role = \(Role.owner.rawValue)", as: Int.self) ?? 0 > 0 {
                throw AccessError(.conflict, "This server has an owner already: sign in instead.")
            }
            if try tx.first("SELECT id FROM users WHERE name = \(name)") != nil {
                throw AccessError(.conflict, "There is already a user named \(name).")
            }
            let id = try tx.scalar("""
                INSERT INTO users (name, role, password_hash, created_at, password_changed_at)
                VALUES (\(name), \(Role.owner.rawValue), \(hash), \(now), \(now)) RETURNING id
                """, as: Int.self) ?? 0
            try tx.run("DELETE FROM setup_tokens")
            try tx.notify(channel: AccessChange.channel, payload: AccessChange.added(id).payload)
            return User(id: id, name: name, role: .owner, passwordHash: hash, createdAt: now)
        }
    }

    /// Checks that `token` can still make the owner, without using it: throws `.notFound` for a
    /// token that is not (or no longer) valid, `.conflict` once an owner exists, as
    /// `completeSetup` would.
    public func checkSetup(token: String) throws {
        guard AccessToken.isWellFormed(token) else { throw AccessError(.notFound, "This setup link is not valid.") }
        let digest = self.digest(of: token)
        try upgradeLegacyDigest(of: token, to: digest, in: .setupTokens)
        try database.transaction(.read) { tx in
            guard try tx.first("SELECT digest FROM setup_tokens WHERE digest = \(digest)") != nil else {
                throw AccessError(.notFound, "This setup link is not valid: it was used already, or was never made.")
            }
            if try tx.scalar("SELECT COUNT(*) FROM users WHERE role = \(Role.owner.rawValue)", as: Int.self) ?? 0 > 0 {
                throw AccessError(.conflict, "This server has an owner already: sign in instead.")
            }
        }
    }

    /// Whether a setup token is waiting to be used.
    public func hasSetupToken() throws -> Bool {
        try database.scalar("SELECT COUNT(*) FROM setup_tokens", as: Int.self) ?? 0 > 0
    }
}
