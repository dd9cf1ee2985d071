/// A session found by its token: a signed-in user's, or a share link's opened with its password.
public struct Session: Sendable, Equatable {
    /// What the session is for.
    public enum Holder: Sendable, Equatable {
        case user(User)
        case share(id: Int)
    }

    /// The digest its token is kept under.
    public let digest: String
    public let holder: Holder
    /// Unix seconds.
    public let createdAt: Int
    public let lastSeen: Int
    /// Unix seconds after which it is over, whatever happens.
    public let expiresAt: Int

    public init(digest: String, holder: Holder, createdAt: Int, lastSeen: Int, expiresAt: Int) {
        self.digest = digest
        self.holder = holder
        self.createdAt = createdAt
        self.lastSeen = lastSeen
        self.expiresAt = expiresAt
    }

    /// The signed-in user, for a user's session.
    public var user: User? {
        if case .user(let user) = holder { return user }
        return nil
    }
}
