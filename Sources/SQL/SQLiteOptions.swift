/// Settings of an embedded SQLite database.
public struct SQLiteOptions: Sendable, Equatable {
    /// How SQLite makes a commit durable.
    public enum Synchronous: String, Sendable {
        /// A commit is on disk when it returns (an fsync of the WAL per commit).
        case full = "FULL"
        /// A commit survives a crash of the process, not of the machine (fsync at checkpoints).
        case normal = "NORMAL"
    }

    /// Milliseconds a statement waits for another connection's lock before failing with `.busy`. Default 5000.
    public var busyTimeoutMilliseconds = 5000
    /// Default `.full`: an acknowledged write is on disk.
    public var synchronous = Synchronous.full
    /// Prepared statements kept per connection. Default 128.
    public var statementCacheCapacity = 128

    public init(busyTimeoutMilliseconds: Int = 5000, synchronous: Synchronous = .full, statementCacheCapacity: Int = 128) {
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.synchronous = synchronous
        self.statementCacheCapacity = statementCacheCapacity
    }
}
