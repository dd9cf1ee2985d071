/// The comment store and its live streams. Closing the store commits every comment already
/// acknowledged (the HTTP server, stopped before it, answers no new ones).
final class CommentStoreService: Service {
    let name = "comments"
    private let comments: CommentService

    init(_ comments: CommentService) { self.comments = comments }

    func shutDown(deadline: ContinuousClock.Instant) { comments.stop() }
}
