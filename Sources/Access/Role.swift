/// What a signed-in person may do.
public enum Role: String, Sendable, Equatable, CaseIterable {
    /// Everything: the library, comments, share links, accounts.
    case owner
    /// Sees and comments on everything; makes no links and no accounts.
    case member
}
