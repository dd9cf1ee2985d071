/// What a change to the access tables ends or adds, as sent on the notification channel: every
/// process on the database (each replica, each `photoscroll users` run on PostgreSQL) drops
/// what it kept of it at once. (A build that does not know a kind forgets everything it kept.)
public enum AccessChange: Sendable, Equatable {
    /// One session ended (signed out), by its digest.
    case session(String)
    /// Every session of a user ended (password changed, user removed), by the user's id.
    case user(Int)
    /// A share link was revoked, by its id.
    case share(Int)
    /// An account was added, by its id: the names that belong to accounts changed.
    case added(Int)

    /// The notification channel.
    public static let channel = "photoscroll_access"

    /// `session:<digest>`, `user:<id>`, `share:<id>`, `added:<id>`.
    public var payload: String {
        switch self {
        case .session(let digest): "session:" + digest
        case .user(let id): "user:" + String(id)
        case .share(let id): "share:" + String(id)
        case .added(let id): "added:" + String(id)
        }
    }

    /// The change a payload names, or nil for one this build does not know.
    public init?(payload: String) {
        guard let colon = payload.firstIndex(of: ":") else { return nil }
        let kind = payload[..<colon], value = String(payload[payload.index(after: colon)...])
        switch kind {
        case "session": self = .session(value)
        case "user": guard let id = Int(value) else { return nil }; self = .user(id)
        case "share": guard let id = Int(value) else { return nil }; self = .share(id)
        case "added": guard let id = Int(value) else { return nil }; self = .added(id)
        default: return nil
        }
    }
}
