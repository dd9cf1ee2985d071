/// What one comment notification says, in a few bytes: the rows themselves are read from the
/// database by whoever hears it (a comment may be longer than a notification may carry).
enum CommentChange: Equatable {
    /// Comments up to this id were committed.
    case added(through: Int)
    /// One comment was deleted.
    case deleted(photoID: Int, commentID: Int)
    /// Comments moved between photos (`reattach`): every count is stale.
    case reattached

    /// `a 42`, `d 3 17`, `r`.
    var payload: String {
        switch self {
        case .added(let id): "a \(id)"
        case .deleted(let photoID, let commentID): "d \(photoID) \(commentID)"
        case .reattached: "r"
        }
    }

    /// Reads a payload; nil for one this build does not know (a newer replica's), which the
    /// listener treats as "anything may have changed".
    init?(payload: String) {
        let parts = payload.split(separator: " ")
        switch parts.first {
        case "a" where parts.count == 2:
            guard let id = Int(parts[1]) else { return nil }
            self = .added(through: id)
        case "d" where parts.count == 3:
            guard let photoID = Int(parts[1]), let commentID = Int(parts[2]) else { return nil }
            self = .deleted(photoID: photoID, commentID: commentID)
        case "r" where parts.count == 1:
            self = .reattached
        default:
            return nil
        }
    }
}
