/// How a connection's statement cache has been used, for tests and metrics.
public struct SQLStatementStatistics: Sendable, Equatable {
    /// Statements prepared (cache misses).
    public var prepares: Int
    /// Statements found already prepared.
    public var hits: Int
    /// Statements cached now.
    public var cached: Int
}
