/// Store failures that are not the database's own (those are `SQLError`s).
public enum CommentStoreError: Error, Equatable, CustomStringConvertible {
    /// The store was closed (the server is stopping).
    case closed

    public var description: String {
        switch self {
        case .closed: "The comment store is closed."
        }
    }
}
