/// The rules for account names and passwords, checked the same way by the command line and
/// the page.
public enum Credentials {
    /// The shortest password accepted, in characters.
    public static let minimumPasswordLength = 10
    /// The longest account name, in characters.
    public static let maximumNameLength = 64

    /// Refuses a password shorter than `minimumPasswordLength` characters or longer than
    /// Argon2's input limit here, saying why.
    public static func checkPassword(_ password: String) throws(AccessError) {
        guard password.count >= minimumPasswordLength else {
            throw AccessError(.invalid, "The password must be at least \(minimumPasswordLength) characters long; it has \(password.count).")
        }
        guard password.utf8.count <= PasswordHash.maxPasswordBytes else {
            throw AccessError(.invalid, "The password must be at most \(PasswordHash.maxPasswordBytes) bytes long.")
        }
    }

    /// Refuses a name that is empty, too long, or holds anything but letters, digits, spaces
    /// inside, and `. _ - @`.
    public static func checkName(_ name: String) throws(AccessError) {
        guard !name.isEmpty, name.count <= maximumNameLength else {
            throw AccessError(.invalid, "A user name must be 1 to \(maximumNameLength) characters long.")
        }
        guard name.first != " ", name.last != " ",
              name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || " ._-@".unicodeScalars.contains($0) }) else {
            throw AccessError(.invalid, "A user name may hold letters, digits, spaces inside, and . _ - @; \"\(name.prefix(64))\" holds something else.")
        }
    }
}
