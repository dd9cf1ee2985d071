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
