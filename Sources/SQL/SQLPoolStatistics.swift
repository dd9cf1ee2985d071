/// The pool's connections, for tests, logs and metrics.
public struct SQLPoolStatistics: Sendable, Equatable {
    /// Connections open now, idle or lent.
    public var open: Int
    /// Connections waiting to be lent.
    public var idle: Int
    /// Most connections open at once.
    public var capacity: Int
    /// Connections opened since the start.
    public var connects: Int
    /// Attempts to connect that failed.
    public var connectFailures: Int
}
