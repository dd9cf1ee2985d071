/// An account.
public struct User: Sendable, Equatable {
    public let id: Int
    public let name: String
    public let role: Role
    /// Argon2id, as a PHC string.
    let passwordHash: String
    /// Unix seconds.
    public let createdAt: Int

    public init(id: Int, name: String, role: Role, passwordHash: String, createdAt: Int) {
        self.id = id
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}
