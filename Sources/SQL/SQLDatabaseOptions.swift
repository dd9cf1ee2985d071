/// Settings of a database handle, each with its default.
public struct SQLDatabaseOptions: Sendable {
    public var sqlite: SQLiteOptions
    /// Connections to one SQLite file at most (WAL lets readers run beside the one writer). Default 4.
    public var sqliteConnections: Int
    public var postgres: PostgresOptions
    /// How long a borrower waits for a free connection before `.poolTimeout`. Default 10 s.
    public var acquireTimeout: Duration
    /// Spacing of connection attempts while the server is unreachable. Default 50 ms doubling to 5 s.
    public var reconnectBackoff: SQLBackoff
    /// How `transaction` retries transient failures. Default 5 runs, 5 ms doubling to 200 ms apart.
    public var transactionRetry: SQLRetryPolicy
    /// A PostgreSQL listener quiet this long checks its connection with a round trip. Default 10 s.
    public var listenerKeepAlive: Duration
    /// Connect once when opening, so a wrong address or an unreachable server fails at start. Default true.
    public var connectAtOpen: Bool

    public init(sqlite: SQLiteOptions = SQLiteOptions(), sqliteConnections: Int = 4, postgres: PostgresOptions = PostgresOptions(),
                acquireTimeout: Duration = .seconds(10), reconnectBackoff: SQLBackoff = SQLBackoff(),
                transactionRetry: SQLRetryPolicy = SQLRetryPolicy(), listenerKeepAlive: Duration = .seconds(10),
                connectAtOpen: Bool = true) {
        self.sqlite = sqlite
        self.sqliteConnections = sqliteConnections
        self.postgres = postgres
        self.acquireTimeout = acquireTimeout
        self.reconnectBackoff = reconnectBackoff
        self.transactionRetry = transactionRetry
        self.listenerKeepAlive = listenerKeepAlive
        self.connectAtOpen = connectAtOpen
    }
}
