import Observability
import POSIX

/// A database, SQLite or PostgreSQL, behind one API: pooled connections, transactions that
/// retry transient failures, notifications, advisory locks and migrations.
///
///     let db = try SQLDatabase(.postgres(try PostgresURL(parsing: "postgres://app@db/photoscroll")))
///     try db.migrate(CommentSchema.schema)
///     let comment = try db.transaction { tx in
///         let row = try tx.first("INSERT INTO comments (photo_id, text) VALUES (\(3), \(text)) RETURNING id")!
///         try tx.notify(channel: "comments", payload: String(try row.decode(0, as: Int.self)))
///         return try row.decode(0, as: Int.self)
///     }
///
/// Every method blocks its thread; call them from worker threads, never an event loop.
public final class SQLDatabase: Sendable {
    public let location: SQLLocation
    public let options: SQLDatabaseOptions
    /// The SQL differences of this database's engine.
    public let dialect: SQLDialect
    private let pool: ConnectionPool
    private let hub: NotificationHub?
    private let locks: any LockSession
    private let logger: Logger

    /// Opens the database (connecting once unless `options.connectAtOpen` is false): throws
    /// `.connectionFailed` naming the server when it cannot be reached.
    public init(_ location: SQLLocation, options: SQLDatabaseOptions = SQLDatabaseOptions(), logger: Logger = .disabled) throws {
        self.location = location
        self.options = options
        self.dialect = SQLDialect(location.engine)
        self.logger = logger
        switch location {
        case .sqlite(let path):
            let sqlite = options.sqlite
            pool = ConnectionPool(capacity: max(1, options.sqliteConnections), waitTimeout: options.acquireTimeout,
                                  backoff: options.reconnectBackoff, server: path, logger: logger) {
                try SQLiteDriverConnection(path: path, options: sqlite)
            }
            hub = NotificationHub()
            locks = FileLockSession(path: path + "-locks")
        case .postgres(let url):
            let postgres = options.postgres
            pool = ConnectionPool(capacity: max(1, postgres.maxConnections), waitTimeout: options.acquireTimeout,
                                  backoff: options.reconnectBackoff, server: url.serverDescription, logger: logger) {
                try PostgresDriverConnection(url: url, options: postgres)
            }
            hub = nil
            // Named apart in pg_stat_activity, so an operator can tell what each session is for.
            var lockOptions = postgres
            lockOptions.applicationName += "-locks"
            locks = PostgresLockSession { [lockOptions] in try PostgresDriverConnection(url: url, options: lockOptions) }
        }
        if options.connectAtOpen { try pool.warmUp() }
    }

    deinit { pool.close() }

    /// Which engine this is.
    public var engine: SQLEngine { dialect.engine }

    /// Lends a connection for the length of `body`. An open transaction left by `body` is rolled back.
    public func withConnection<T>(_ body: (SQLConnection) throws -> T) throws -> T {
        let driver = try pool.acquire()
        let connection = SQLConnection(driver: driver, hub: hub)
        defer {
            connection.invalidate()
            driver.resetAfterLoan()
            pool.release(driver)
        }
        return try body(connection)
    }

    /// Runs `body` in a transaction, committed when it returns. A transient failure
    /// (serialization failure, deadlock, busy, a connection lost before COMMIT) rolls back and
    /// runs `body` again from the start, on a fresh connection if the old one broke, as
    /// `options.transactionRetry` allows — so `body` must do nothing outside the database that
    /// it cannot do twice. A connection lost during COMMIT throws `.commitOutcomeUnknown` and is
    /// never retried.
    public func transaction<T>(_ kind: SQLTransactionKind = .write, _ body: (SQLConnection) throws -> T) throws -> T {
        let policy = options.transactionRetry
        var attempt = 1
        while true {
            do {
                return try withConnection { try $0.transaction(kind, body) }
            } catch let error as SQLError where attempt < policy.attempts && SQLRetryPolicy.shouldRetry(error) {
                logger.debug("retrying a transaction", [("attempt", String(attempt)), ("error", error.message)])
                let wait = policy.backoff.delay(afterFailures: attempt, jitter: Double.random(in: 0..<1))
                pause(wait)
                attempt += 1
            }
        }
    }

    /// Runs one statement on a pooled connection; returns the rows it changed. Not retried: if
    /// the connection breaks, the statement may or may not have run (`transaction` retries).
    @discardableResult
    public func run(_ query: SQLQuery) throws -> Int {
        try withConnection { try $0.run(query) }
    }

    /// Runs one statement on a pooled connection and returns its rows.
    public func query(_ query: SQLQuery) throws -> [SQLRow] {
        try withConnection { try $0.query(query) }
    }

    /// Runs one statement whose columns are all integers on a pooled connection and returns
    /// their values row after row (`SQLConnection.integers`).
    public func integers(_ query: SQLQuery) throws -> [Int64] {
        try withConnection { try $0.integers(query) }
    }

    /// Runs one statement and decodes every row as `T`.
    public func query<T: SQLRowDecodable>(_ query: SQLQuery, as type: T.Type) throws -> [T] {
        try withConnection { try $0.query(query, as: type) }
    }

    /// The first column of the first row as `T`, or nil when there is no row.
    public func scalar<T: SQLDecodable>(_ query: SQLQuery, as type: T.Type = T.self) throws -> T? {
        try withConnection { try $0.scalar(query, as: type) }
    }

    /// Sends a notification outside any transaction (see `SQLConnection.notify`).
    public func notify(channel: String, payload: String) throws {
        try withConnection { try $0.notify(channel: channel, payload: payload) }
    }

    /// Starts delivering `channels`' notifications to `handler`, one event at a time, beginning
    /// with `.connected` (or `.disconnected` while PostgreSQL cannot be reached).
    public func listen(_ channels: [String], handler: @escaping @Sendable (SQLListenerEvent) -> Void) throws -> SQLListener {
        switch location {
        case .sqlite:
            return hub!.listen(channels, handler: handler)
        case .postgres(let url):
            var listenerOptions = options.postgres
            listenerOptions.applicationName += "-listener"
            return try PostgresListener(url: url, options: listenerOptions, channels: channels, keepAlive: options.listenerKeepAlive,
                                        backoff: options.reconnectBackoff, handler: handler).start()
        }
    }

    /// Takes the advisory lock `key` if nobody holds it, or returns nil at once.
    public func tryLock(_ key: SQLLockKey) throws -> SQLAdvisoryLock? {
        guard let ticket = try locks.tryLock(key) else { return nil }
        return SQLAdvisoryLock(key: key, session: locks, ticket: ticket)
    }

    /// A round trip on a pooled connection; throws when the database cannot answer (for readiness probes).
    public func ping() throws {
        _ = try scalar("SELECT 1", as: Int.self)
    }

    /// The pool's connections now.
    public var statistics: SQLPoolStatistics { pool.statistics }

    /// Closes idle connections and refuses new loans; lent connections close as they come back.
    public func close() { pool.close() }
}

/// Sleeps the thread for `duration` (POSIX: nanosleep, resumed after a signal).
func pause(_ duration: Duration) {
    pauseThread(duration)
}
