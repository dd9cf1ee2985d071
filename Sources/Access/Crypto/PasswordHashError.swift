/// A password could not be hashed: too long, or no memory for Argon2id.
package struct PasswordHashError: Error, CustomStringConvertible, Sendable {
    package let description: String

    init(_ description: String) {
        self.description = "password hash: " + description
    }
}
