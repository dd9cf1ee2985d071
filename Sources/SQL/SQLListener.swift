import Synchronization

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
