/// A name, password or request the access rules refuse, in words for the person.
public struct AccessError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The input is not acceptable (a short password, a bad name).
        case invalid
        /// No such user, share or token.
        case notFound
        /// Already there (a user of that name; an owner, for setup).
        case conflict
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
