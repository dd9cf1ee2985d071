import Comments
import Foundation
import HTTP
import Observability
import Synchronization

/// The comment side of the application: store, validation, rate limit, routes and live events.
public final class CommentService: Sendable {
    let store: any CommentStore
    let photoExists: @Sendable (Int) -> Bool
    let limiter: CommentRateLimiter
    let adminToken: AdminToken
    let events: CommentLiveEvents
    let logger: Logger
    /// `photoscroll_comment_posts_total{status}`: every answered POST, by status.
    let posts: Counter
    /// Held across storing a change and publishing it, so live listeners get events in id order
    /// (a listener skips ids it has passed; out-of-order delivery would lose a comment).
    private let publishing = Mutex(())

    /// Opens (or creates) `<data>/comments.sqlite`.
    public convenience init(configuration: Configuration, logger: Logger, metrics: MetricsRegistry,
                            photoExists: @escaping @Sendable (Int) -> Bool) throws {
        try FileManager.default.createDirectory(atPath: configuration.data, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: configuration.data).appendingPathComponent("comments.sqlite").path
        let store = try SQLiteCommentStore(path: path)
        self.init(store: store, configuration: configuration, logger: logger, metrics: metrics, photoExists: photoExists)
        logger.debug("comment store open", [("path", path)])
    }

    /// Wires a given store; tests hand in a memory store, a rate-limit clock and a short heartbeat.
    init(store: any CommentStore, configuration: Configuration, logger: Logger, metrics: MetricsRegistry,
         photoExists: @escaping @Sendable (Int) -> Bool,
         rateLimitClock: @escaping @Sendable () -> Double = { CommentRateLimiter.monotonicSeconds() },
         heartbeatSeconds: Double = 15) {
        self.store = store
        self.photoExists = photoExists
        self.limiter = CommentRateLimiter(perMinute: configuration.commentsPerMinute, now: rateLimitClock)
        self.adminToken = AdminToken(configuration.adminToken)
        self.logger = logger
        self.posts = metrics.counter("photoscroll_comment_posts_total", help: "Comment posts answered, by status.")
        let streams = metrics.gauge("photoscroll_comment_streams", help: "Open live comment streams (Server-Sent Events).")
        self.events = CommentLiveEvents(streams: streams, logger: logger, heartbeatSeconds: heartbeatSeconds)
    }

    /// Number of comments on a photo.
    public func commentCount(photoID: Int) -> Int { store.count(photoID: photoID) }

    /// Closes live streams and the store.
    public func stop() {
        events.closeAll()
        store.close()
    }

    /// Stores a comment and tells live listeners.
    func add(_ submission: CommentSubmission, photoID: Int, client: String) throws -> Comment {
        try publishing.withLock { _ in
            let comment = try storeCall {
                try store.add(photoID: photoID, author: submission.author, text: submission.text, client: client)
            }
            events.publish(.added(comment))
            return comment
        }
    }

    /// Deletes a comment and tells live listeners; false when there was none.
    func delete(photoID: Int, commentID: Int, client: String) throws -> Bool {
        try publishing.withLock { _ in
            let deleted = try storeCall { try store.delete(photoID: photoID, commentID: commentID, client: client) }
            if deleted { events.publish(.deleted(photoID: photoID, commentID: commentID)) }
            return deleted
        }
    }

    /// Runs a store call; a store that is busy or closed is a 503 the client may retry, anything
    /// else is logged and left to become a 500.
    func storeCall<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.isBusy {
            logger.warning("comment store busy", [("error", error.description)])
            throw HTTPError(.serviceUnavailable, "Comments are busy; try again in a moment.", headers: ["Retry-After": "1"])
        } catch CommentStoreError.closed {
            throw HTTPError(.serviceUnavailable, "The server is stopping; try again in a moment.", headers: ["Retry-After": "1"])
        } catch {
            logger.error("comment store failed", [("error", "\(error)")])
            throw error
        }
    }
}
