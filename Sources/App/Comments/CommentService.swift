import HTTP
import Observability

/// The comment side of the application: store, validation, rate limit, routes and live events.
public final class CommentService: Sendable {
    public init(configuration: Configuration, logger: Logger, metrics: MetricsRegistry,
                photoExists: @escaping @Sendable (Int) -> Bool) throws {}

    /// Number of comments on a photo.
    public func commentCount(photoID: Int) -> Int { 0 }

    /// Registers the comment routes under /photos/:id/comments.
    public func register(on router: inout Router) {}

    /// Closes live streams and the store.
    public func stop() {}
}
