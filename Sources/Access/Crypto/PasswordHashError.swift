/// A password could not be hashed: too long, or no memory for Argon2id.
public struct PasswordHashError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = "password hash: " + description
    }
}
