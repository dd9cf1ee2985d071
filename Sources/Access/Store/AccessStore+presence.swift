import SQL

extension AccessStore {
    /// Whether a session is still stored under `digest`: not signed out, nor ended by a password
    /// change or its account's removal. Its expiry is not looked at.
    public func hasSession(digest: String) throws -> Bool {
        try database.scalar("SELECT COUNT(*) FROM sessions WHERE digest = \(digest)", as: Int.self) ?? 0 > 0
    }

    /// Whether the account `id` still exists.
    public func hasUser(id: Int) throws -> Bool {
        try database.scalar("SELECT COUNT(*) FROM users WHERE id = \(id)", as: Int.self) ?? 0 > 0
    }

    /// Whether the share link `id` still exists (is not revoked). Its expiry is not looked at.
    public func hasShare(id: Int) throws -> Bool {
        try database.scalar("SELECT COUNT(*) FROM shares WHERE id = \(id)", as: Int.self) ?? 0 > 0
    }
}
