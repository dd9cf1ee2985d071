import Dispatch
import Synchronization

/// What a listener tells its handler, one event at a time, in order.
public enum SQLListenerEvent: Sendable, Equatable {
    /// Listening on every channel. From here on nothing committed is missed; after a
    /// reconnect (`reconnect: true`) the handler should catch up on what was committed while it
    /// was away, by id, since notifications sent meanwhile are gone.
    case connected(reconnect: Bool)
    /// A notification committed by any connection (any process, for PostgreSQL).
    case notification(SQLNotification)
    /// The listening connection broke (or could not be made); notifications may be missed until
    /// the next `.connected`. The listener keeps trying, with backoff.
    case disconnected(SQLError)

    public static func == (a: SQLListenerEvent, b: SQLListenerEvent) -> Bool {
        switch (a, b) {
        case let (.connected(x), .connected(y)): return x == y
        case let (.notification(x), .notification(y)): return x == y
        case let (.disconnected(x), .disconnected(y)): return x.kind == y.kind
        default: return false
        }
    }
}

/// A running subscription to notification channels; `stop()` ends it.
///
/// PostgreSQL: a connection of its own (outside the pool) on a thread of its own, which
/// `LISTEN`s, waits on the socket, sends a `SELECT 1` when idle for `keepAlive` so a dead
/// server is noticed, and reconnects with backoff. SQLite: notifications committed in this
/// process, delivered on a serial queue.
public final class SQLListener: Sendable {
    private let stopAction: @Sendable () -> Void
    private let stopped = Mutex(false)

    init(stop: @escaping @Sendable () -> Void) {
        stopAction = stop
    }

    deinit { stop() }

    /// Stops listening; once it returns the handler is not called again (unless `stop` is called
    /// from the handler itself, which returns at once).
    public func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { stopAction() }
    }
}

/// Delivers notifications committed in this process to its SQLite listeners.
final class NotificationHub: Sendable {
    private struct Subscriber: Sendable {
        let channels: Set<String>
        let queue: DispatchQueue
        let stopped: Stopped
        let handler: @Sendable (SQLListenerEvent) -> Void
    }

    final class Stopped: Sendable {
        let flag = Atomic(false)
    }

    private let subscribers = Mutex<[Int: Subscriber]>([:])
    private let nextID = Atomic(0)

    /// Subscribes `handler` to `channels`; it is told `.connected` first.
    func listen(_ channels: [String], handler: @escaping @Sendable (SQLListenerEvent) -> Void) -> SQLListener {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let subscriber = Subscriber(channels: Set(channels), queue: DispatchQueue(label: "sql.listener.\(id)"),
                                    stopped: Stopped(), handler: handler)
        subscriber.queue.setSpecific(key: Self.queueKey, value: id)
        subscribers.withLock { $0[id] = subscriber }
        subscriber.queue.async {
            if !subscriber.stopped.flag.load(ordering: .acquiring) { handler(.connected(reconnect: false)) }
        }
        return SQLListener { [weak self] in
            self?.subscribers.withLock { $0[id] = nil }
            subscriber.stopped.flag.store(true, ordering: .releasing)
            // Wait for an event being delivered, unless this is that event's handler stopping itself.
            if DispatchQueue.getSpecific(key: Self.queueKey) != id { subscriber.queue.sync {} }
        }
    }

    func publish(_ notifications: [SQLNotification]) {
        let targets = subscribers.withLock { Array($0) }
        for (_, subscriber) in targets {
            let mine = notifications.filter { subscriber.channels.contains($0.channel) }
            guard !mine.isEmpty else { continue }
            subscriber.queue.async {
                for notification in mine where !subscriber.stopped.flag.load(ordering: .acquiring) {
                    subscriber.handler(.notification(notification))
                }
            }
        }
    }

    static let queueKey = DispatchSpecificKey<Int>()
}
