import Access
import Comments
import Foundation
import HTTP
import Observability
import SQL
import Synchronization

/// The comment side of the application: store, validation, rate limit, routes and live events.
public final class CommentService: Sendable {
    let store: any CommentStore
    let photoExists: @Sendable (Int) -> Bool
    let limiter: CommentRateLimit
    let adminToken: AdminToken
    let clients: ClientAddress
    let events: CommentLiveEvents
    /// `private, no-cache` on a private library: no shared cache keeps a thread.
    let caching: CachePolicy
    let logger: Logger
    /// `photoscroll_comment_posts_total{status}`: every answered POST, by status.
    let posts: Counter
    /// The file a photo id means now (path and content hash), recorded beside a photo's first
    /// comment so a renumbered catalog is caught at the next start (`PhotoIdentityCheck`).
    let identity: @Sendable (Int) -> PhotoIdentity?
    /// Photo ids whose identity is recorded already; nil until first needed.
    private let recordedIdentities = Mutex<Set<Int>?>(nil)

    /// Opens the comments in `database` (migrating their schema). On PostgreSQL the rate limit
    /// is kept there too, shared by every replica; on SQLite, one process's, it stays in memory.
    public convenience init(configuration: Configuration, database: SQLDatabase, logger: Logger, metrics: MetricsRegistry,
                            photoExists: @escaping @Sendable (Int) -> Bool,
                            identity: @escaping @Sendable (Int) -> PhotoIdentity? = { _ in nil }) throws {
        let store = try SQLCommentStore(database: database, metrics: metrics, logger: logger)
        let limiter: CommentRateLimit = database.engine == .postgres
            ? .shared(SQLCommentRateLimiter(database: database, perMinute: configuration.commentsPerMinute))
            : .memory(CommentRateLimiter(perMinute: configuration.commentsPerMinute))
        self.init(store: store, configuration: configuration, logger: logger, metrics: metrics, photoExists: photoExists,
                  identity: identity, limiter: limiter)
        logger.debug("comment store open", [("database", database.location.description)])
    }

    /// Wires a given store; tests hand in a memory store, a rate-limit clock and a short heartbeat.
    init(store: any CommentStore, configuration: Configuration, logger: Logger, metrics: MetricsRegistry,
         photoExists: @escaping @Sendable (Int) -> Bool, identity: @escaping @Sendable (Int) -> PhotoIdentity? = { _ in nil },
         rateLimitClock: @escaping @Sendable () -> Double = { CommentRateLimiter.monotonicSeconds() },
         limiter: CommentRateLimit? = nil, heartbeatSeconds: Double = 15, tokenThrottle: FailureThrottle? = nil) {
        self.store = store
        self.photoExists = photoExists
        self.identity = identity
        self.limiter = limiter ?? .memory(CommentRateLimiter(perMinute: configuration.commentsPerMinute, now: rateLimitClock))
        self.adminToken = AdminToken(configuration.adminToken, throttle: tokenThrottle ?? FailureThrottle(now: rateLimitClock))
        self.clients = ClientAddress(trustedProxies: configuration.trustedProxies)
        self.caching = CachePolicy(private: AccessMode.resolve(configuration.access, host: configuration.host) == .private)
        self.logger = logger
        self.posts = metrics.counter("photoscroll_comment_posts_total", help: "Comment posts answered, by status.")
        let streams = metrics.gauge("photoscroll_comment_streams", help: "Open live comment streams (Server-Sent Events).")
        let events = CommentLiveEvents(streams: streams, logger: logger, heartbeatSeconds: heartbeatSeconds)
        self.events = events
        // The store reports changes in commit order, which live listeners need: they resume from
        // the last id they saw, so delivering 14 before 13 could lose 13 on a reconnect.
        store.onChange { events.publish($0) }
    }

    /// Number of comments on a photo.
    public func commentCount(photoID: Int) -> Int { store.count(photoID: photoID) }

    /// Whether the comment database answers and every replica's changes are heard (for /readyz).
    public var isReachable: Bool { store.isReachable }

    /// Closes live streams and the store.
    public func stop() {
        events.closeAll()
        store.close()
    }

    /// Stores a comment; live listeners hear of it through the store's change handler.
    func add(_ submission: CommentSubmission, photoID: Int, client: String) throws -> Comment {
        let comment = try storeCall { try store.add(photoID: photoID, author: submission.author, text: submission.text, client: client,
                                                    verified: submission.verified) }
        recordIdentity(of: photoID)
        return comment
    }

    /// Records which file `photoID` means, the first time it gets a comment.
    private func recordIdentity(of photoID: Int) {
        guard let map = store as? any PhotoIdentityMap else { return }
        let known = recordedIdentities.withLock { recorded -> Bool? in
            recorded?.contains(photoID)
        }
        if known == true { return }
        do {
            if known == nil {
                let all = Set(try map.photoIdentities().map(\.photoID))
                recordedIdentities.withLock { $0 = all }
                if all.contains(photoID) { return }
            }
            guard let current = identity(photoID) else { return }
            try map.record([current])
            recordedIdentities.withLock { _ = $0?.insert(photoID) }
        } catch {
            // The comment itself is stored; the next start records the identity.
            logger.warning("cannot record which file a commented photo is", [("photo", String(photoID)), ("error", "\(error)")])
        }
    }

    /// Deletes a comment; false when there was none.
    func delete(photoID: Int, commentID: Int, client: String) throws -> Bool {
        try storeCall { try store.delete(photoID: photoID, commentID: commentID, client: client) }
    }

    /// Runs a store call. A database that is busy, full, unreachable or closing is a 503 with
    /// `Retry-After` (nothing was stored, so the client may send the same again); anything else
    /// is logged and left to become a 500.
    func storeCall<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLError {
            throw unavailable(error) ?? error
        } catch CommentStoreError.closed {
            throw HTTPError(.serviceUnavailable, "The server is stopping; try again in a moment.", headers: ["Retry-After": "1"])
        } catch {
            logger.error("comment store failed", [("error", "\(error)")])
            throw error
        }
    }

    /// The 503 for a database failure a client can wait out, or nil (logged) for one it cannot.
    private func unavailable(_ error: SQLError) -> HTTPError? {
        switch error.kind {
        case .busy, .poolTimeout:
            logger.warning("comment store busy", [("error", error.description)])
            return HTTPError(.serviceUnavailable, "Comments are busy; try again in a moment.", headers: ["Retry-After": "1"])
        case .diskFull:
            logger.error("comment store cannot write: the disk is full or failing", [("error", error.description)])
            return HTTPError(.serviceUnavailable, "The server cannot store comments right now (its disk is full); try again later.",
                             headers: ["Retry-After": "60"])
        case .connectionLost, .connectionFailed, .readOnly:
            logger.warning("comment database unavailable", [("error", error.description)])
            return HTTPError(.serviceUnavailable, "The comment database cannot be reached right now; nothing was stored. Try again in a moment.",
                             headers: ["Retry-After": "2"])
        case .commitOutcomeUnknown:
            logger.error("the comment database connection broke during a commit", [("error", error.description)])
            return HTTPError(.serviceUnavailable,
                             "The connection to the comment database broke while saving; the comment may or may not be stored. Reload the thread before sending it again.",
                             headers: ["Retry-After": "2"])
        default:
            logger.error("comment store failed", [("error", error.description), ("kind", error.kind.rawValue)])
            return nil
        }
    }
}
