import SQL

extension AccessStore {
    /// Starts a session for `user`: the new token, for the cookie. Only its digest is stored.
    public func startSession(for user: User) throws -> String {
        try startSession(userID: user.id, shareID: nil, expiresAt: now() + limits.lifetimeSeconds)
    }

    /// Starts a session for the holder of share link `share` who gave its password; it ends
    /// with the link or at the session lifetime, whichever is first.
    public func startSession(forShare share: Share) throws -> String {
        let lifetime = now() + limits.lifetimeSeconds
        return try startSession(userID: nil, shareID: share.id, expiresAt: min(lifetime, share.expiresAt ?? lifetime))
    }

    private func startSession(userID: Int?, shareID: Int?, expiresAt: Int) throws -> String {
        let token = try AccessToken.make()
        let now = self.now()
        try database.run("""
            INSERT INTO sessions (digest, digest_scheme, user_id, share_id, created_at, last_seen, expires_at)
            VALUES (\(digest(of: token)), \(TokenDigest.Scheme.keyedBLAKE2b.rawValue), \(userID), \(shareID), \(now), \(now), \(expiresAt))
            """)
        pruneSessions(now: now)
        return token
    }

    /// The live session whose token this is, or nil: unknown, over its lifetime, idle too long,
    /// or its user gone. A session seen again after `touchSeconds` is written back as seen; one
    /// an older version stored is rewritten to the keyed digest, which `Session.digest` always is.
    public func session(token: String) throws -> Session? {
        guard AccessToken.isWellFormed(token) else { return nil }
        let digest = self.digest(of: token)
        let now = self.now()
        var found = try sessionRow(digest: digest)
        if found == nil, legacyDigestsLeft.withLock({ $0 }) {
            // Looked up again whether or not this rewrote the row: another replica (or thread)
            // may have rewritten it between the first lookup and the rewrite.
            try upgradeLegacyDigest(of: token, to: digest, in: .sessions)
            found = try sessionRow(digest: digest)
        }
        guard let row = found else { return nil }
        let lastSeen = try row.decode(3, as: Int.self)
        let expiresAt = try row.decode(4, as: Int.self)
        let userID = try row.decode(0, as: Int?.self)
        let holder: Session.Holder
        if userID != nil {
            guard let id = try row.decode(5, as: Int?.self) else { return nil }
            holder = .user(User(id: id, name: try row.decode(6), role: Role(rawValue: try row.decode(7, as: String.self)) ?? .member,
                                passwordHash: try row.decode(8), createdAt: try row.decode(9)))
        } else if let share = try row.decode(1, as: Int?.self) {
            holder = .share(id: share)
        } else {
            return nil
        }
        guard now < expiresAt, now < lastSeen + limits.idleSeconds else {
            _ = try? database.run("DELETE FROM sessions WHERE digest = \(digest)")
            return nil
        }
        var seen = lastSeen
        if now - lastSeen >= Self.touchSeconds {
            // Best effort: a lost write only makes the session look idle a minute sooner.
            if (try? database.run("UPDATE sessions SET last_seen = \(now) WHERE digest = \(digest)")) != nil { seen = now }
        }
        return Session(digest: digest, holder: holder, createdAt: try row.decode(2), lastSeen: seen, expiresAt: expiresAt)
    }

    private func sessionRow(digest: String) throws -> SQLRow? {
        try database.query("""
            SELECT s.user_id, s.share_id, s.created_at, s.last_seen, s.expires_at, u.id, u.name, u.role, u.password_hash, u.created_at
            FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.digest = \(digest)
            """).first
    }

    /// Ends the session whose token this is, on every replica. Nothing happens for an unknown token.
    public func endSession(token: String) throws {
        guard AccessToken.isWellFormed(token) else { return }
        let digest = self.digest(of: token)
        try upgradeLegacyDigest(of: token, to: digest, in: .sessions)
        try database.transaction { tx in
            try tx.run("DELETE FROM sessions WHERE digest = \(digest)")
            try tx.notify(channel: AccessChange.channel, payload: AccessChange.session(digest).payload)
        }
    }

    /// Sessions stored now (for tests and metrics).
    public func sessionCount() throws -> Int {
        try database.scalar("SELECT COUNT(*) FROM sessions", as: Int.self) ?? 0
    }

    /// Deletes sessions past their lifetime or idle limit; they are refused anyway.
    func pruneSessions(now: Int) {
        _ = try? database.run("DELETE FROM sessions WHERE expires_at <= \(now) OR last_seen <= \(now - limits.idleSeconds)")
    }
}
