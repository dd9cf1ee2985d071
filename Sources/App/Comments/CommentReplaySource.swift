import Comments

/// Where a replay reads what a returning listener missed: deletions of comments it may be
/// showing, and pages of the comments after its last event id.
struct CommentReplaySource: Sendable {
    /// Ids of the photo's comments deleted so far, up to the given id.
    var deletedIDs: @Sendable (_ through: Int) throws -> [Int]
    /// Up to `limit` comments with ids greater than `after`, oldest first.
    var page: @Sendable (_ after: Int, _ limit: Int) throws -> [Comment]
}
