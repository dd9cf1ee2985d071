import Foundation
import Observability
import SQL

/// Turns committed comment changes, from this process or any other on the same database, into
/// `CommentEvent`s for the store's `onChange` handlers: every comment once, in id order.
///
/// It listens on the store's channel. A notification says that comments were added (the rows
/// are then read by id: everything after the last id delivered), or which comment was deleted.
/// Because ids follow commit order (see `SQLCommentStore`), reading "after the last id
/// delivered" misses nothing and repeats nothing, whether it runs for one notification, for
/// several at once, or after the listening connection was down for a while: on
/// `.connected(reconnect: true)` it reads what was committed meanwhile, and deletions of the
/// time away are read back from the deletion audit. Everything runs on one serial queue.
// @unchecked Sendable: its mutable state is guarded by `condition` and written on the serial `queue` only.
final class CommentFeed: @unchecked Sendable {
    // Mutable state below is guarded by `condition`; it is written on `queue` only.
    private let condition = NSCondition()
    private var handlers: [@Sendable (CommentEvent) -> Void] = []
    private var lastDelivered: Int
    private var connected = false
    /// Wall time, not a clock instant: deletions are looked up by their wall-clock `deleted_at`.
    private var disconnectedAt: Date?
    private var retryScheduled = false
    private var stopped = false

    private let database: SQLDatabase
    private let channel: String
    private let counts: CommentCounts
    private let logger: Logger
    private let connectedGauge: Gauge?
    private let queue = DispatchQueue(label: "comments.feed")
    private var listener: SQLListener?

    /// Rows read per query while catching up.
    static let pageSize = 500
    /// Deletions are replayed from this long before the listening connection was lost, for
    /// clocks that differ between replicas.
    static let deletionReplayMargin: TimeInterval = 120

    init(database: SQLDatabase, channel: String, counts: CommentCounts, logger: Logger, metrics: MetricsRegistry?) throws {
        self.database = database
        self.channel = channel
        self.counts = counts
        self.logger = logger
        self.connectedGauge = metrics?.gauge("photoscroll_comment_feed_connected",
                                             help: "1 while comment changes of every replica are being heard, else 0.")
        // Read before listening: anything committed after this is caught up once connected.
        lastDelivered = (try database.scalar("SELECT MAX(id) FROM comments", as: Int?.self) ?? nil) ?? 0
        connectedGauge?.set(0)
        let listener = try database.listen([channel]) { [weak self] event in
            guard let self else { return }
            self.queue.async { self.handle(event) }
        }
        condition.withLock { self.listener = listener }
    }

    /// Registers a handler; see `CommentStore.onChange`.
    func onChange(_ handler: @escaping @Sendable (CommentEvent) -> Void) {
        condition.withLock { handlers.append(handler) }
    }

    /// Whether every change is being heard now.
    var isConnected: Bool { condition.withLock { connected } }

    /// Blocks until comments up to `id` have been delivered, or `timeout` passes.
    func wait(untilDelivered id: Int, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        condition.lock()
        defer { condition.unlock() }
        while lastDelivered < id {
            if !condition.wait(until: deadline.date) { return lastDelivered >= id }
        }
        return true
    }

    /// Stops listening; no handler is called once it returns.
    func stop() {
        let listener = condition.withLock { () -> SQLListener? in
            stopped = true
            defer { self.listener = nil }
            return self.listener
        }
        listener?.stop()
        queue.sync {}
    }

    private var isStopped: Bool { condition.withLock { stopped } }

    private func handle(_ event: SQLListenerEvent) {
        guard !isStopped else { return }
        switch event {
        case .connected(let reconnect):
            let since = condition.withLock { () -> Date? in
                connected = true
                return disconnectedAt
            }
            connectedGauge?.set(1)
            counts.setTrusted(true)
            if reconnect {
                logger.info("hearing comment changes again; catching up on what was missed")
                counts.invalidateAll()
                if let since { replayDeletions(since: since) }
            }
            _ = try? counts.reloadAll()
            catchUp()
        case .notification(let notification):
            guard notification.channel == channel else { return }
            switch CommentChange(payload: notification.payload) {
            case .added?:
                catchUp()
            case .deleted(let photoID, let commentID)?:
                counts.invalidate(photoID)
                deliver(.deleted(photoID: photoID, commentID: commentID))
            case .reattached?, nil:
                counts.invalidateAll()
                catchUp()
            }
        case .disconnected(let error):
            let wasConnected = condition.withLock { () -> Bool in
                defer { connected = false }
                if connected { disconnectedAt = Date() }
                return connected
            }
            connectedGauge?.set(0)
            counts.setTrusted(false)
            if wasConnected {
                logger.warning("lost the database connection that hears comment changes; reconnecting", [("error", error.message)])
            }
        }
    }

    /// Delivers every comment after the last one delivered, a page at a time.
    private func catchUp() {
        do {
            while true {
                let after = condition.withLock { lastDelivered }
                let page = try database.query("""
                    SELECT \(raw: Comment.columns) FROM comments WHERE id > \(after) ORDER BY id LIMIT \(Self.pageSize)
                    """, as: Comment.self)
                for comment in page {
                    counts.invalidate(comment.photoID)
                    deliver(.added(comment))
                }
                if page.count < Self.pageSize { return }
            }
        } catch {
            // Nothing is marked delivered that was not: the next try starts where this one stopped.
            logger.warning("cannot read new comments for live listeners; trying again", [("error", "\(error)")])
            scheduleRetry()
        }
    }

    private func scheduleRetry() {
        let first = condition.withLock { () -> Bool in
            defer { retryScheduled = true }
            return !retryScheduled
        }
        guard first else { return }
        queue.asyncAfter(deadline: .now() + 0.5) { [weak self] in
            guard let self, !self.isStopped else { return }
            self.condition.withLock { self.retryScheduled = false }
            self.catchUp()
        }
    }

    /// Deletions committed while the listening connection was down.
    private func replayDeletions(since: Date) {
        let from = Int(since.timeIntervalSince1970 - Self.deletionReplayMargin)
        do {
            for row in try database.query("SELECT photo_id, comment_id FROM comment_deletions WHERE deleted_at >= \(from) ORDER BY comment_id") {
                deliver(.deleted(photoID: try row.decode(0), commentID: try row.decode(1)))
            }
        } catch {
            logger.warning("cannot read the deletions missed while away", [("error", "\(error)")])
        }
    }

    private func deliver(_ event: CommentEvent) {
        let handlers = condition.withLock { self.handlers }
        handlers.forEach { $0(event) }
        guard case .added(let comment) = event else { return }
        condition.withLock {
            lastDelivered = max(lastDelivered, comment.id)
            condition.broadcast()
        }
    }
}
