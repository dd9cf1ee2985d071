/// A change to a photo's thread, as live listeners and replays see it.
public enum CommentEvent: Sendable, Hashable {
    case added(Comment)
    case deleted(photoID: Int, commentID: Int)

    /// The photo whose thread changed.
    public var photoID: Int {
        switch self {
        case .added(let comment): comment.photoID
        case .deleted(let photoID, _): photoID
        }
    }
}
