/// A connection lent by `SQLDatabase` for the length of one closure.
///
/// Not `Sendable`: it belongs to the thread that borrowed it, and stops working when the
/// closure returns (a kept reference throws `.misuse`). Statements go through the connection's
/// prepared-statement cache, keyed by their text.
public final class SQLConnection {
    private var driver: (any DriverConnection)?
    /// The SQL differences of this connection's engine.
    public let dialect: SQLDialect
    /// Where committed SQLite notifications are delivered in-process; nil for PostgreSQL, whose server delivers them.
    private let hub: NotificationHub?
    private(set) var isInTransaction = false
    private var pendingNotifications: [SQLNotification] = []

    init(driver: any DriverConnection, hub: NotificationHub?) {
        self.driver = driver
        self.dialect = SQLDialect(driver.engine)
        self.hub = hub
    }

    /// Which engine this connection speaks to.
    public var engine: SQLEngine { dialect.engine }

    /// How often statements were prepared and reused on this connection.
    public var statementStatistics: SQLStatementStatistics {
        driver?.statementStatistics ?? SQLStatementStatistics(prepares: 0, hits: 0, cached: 0)
    }

    /// Runs SQL text without parameters, possibly several statements (schema changes). Not cached.
    public func execute(_ sql: String) throws {
        try borrowed().execute(sql)
    }

    /// Runs one statement; returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func run(_ query: SQLQuery) throws -> Int {
        try borrowed().perform(query.sql, query.bindings).changed
    }

    /// Runs one statement and returns its rows (`SELECT`, or anything with `RETURNING`).
    public func query(_ query: SQLQuery) throws -> [SQLRow] {
        try borrowed().perform(query.sql, query.bindings).rows
    }

    /// Runs one statement whose columns are all integers and returns their values row after
    /// row (two columns: `[a1, b1, a2, b2, …]`); a column that is not an integer throws
    /// `.decoding`. For the statements that read thousands of ids.
    public func integers(_ query: SQLQuery) throws -> [Int64] {
        try borrowed().integers(query.sql, query.bindings)
    }

    /// Runs one statement and decodes every row as `T`.
    public func query<T: SQLRowDecodable>(_ query: SQLQuery, as type: T.Type) throws -> [T] {
        try self.query(query).map { try T(row: $0) }
    }

    /// The first row, or nil when there is none.
    public func first(_ query: SQLQuery) throws -> SQLRow? {
        try self.query(query).first
    }

    /// The first column of the first row as `T`, or nil when there is no row.
    public func scalar<T: SQLDecodable>(_ query: SQLQuery, as type: T.Type = T.self) throws -> T? {
        guard let row = try first(query) else { return nil }
        return try row.decode(0, as: type)
    }

    /// Sends `payload` to every listener of `channel`, in every process for PostgreSQL, in this
    /// process for SQLite. Inside a transaction it is sent when the transaction commits, and not
    /// at all if it rolls back. PostgreSQL caps a payload at 8000 bytes.
    public func notify(channel: String, payload: String) throws {
        let driver = try borrowed()
        if driver.engine == .postgres {
            _ = try driver.perform("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
        } else if isInTransaction {
            pendingNotifications.append(SQLNotification(channel: channel, payload: payload))
        } else {
            hub?.publish([SQLNotification(channel: channel, payload: payload)])
        }
    }

    /// Runs `body` in one transaction on this connection: committed when it returns, rolled back
    /// when it throws. No retries (`SQLDatabase.transaction` retries); no nesting.
    public func transaction<T>(_ kind: SQLTransactionKind = .write, _ body: (SQLConnection) throws -> T) throws -> T {
        try begin(kind)
        do {
            let value = try body(self)
            try commit()
            return value
        } catch {
            rollback()
            throw error
        }
    }

    func begin(_ kind: SQLTransactionKind, exclusive: Bool = false) throws {
        guard !isInTransaction else { throw SQLError(.misuse, message: "a transaction is already open on this connection") }
        let driver = try borrowed()
        let statement: String
        switch (driver.engine, kind) {
        case (.sqlite, .read), (.sqlite, .snapshot): statement = "BEGIN DEFERRED"
        // The write lock is taken at BEGIN, where the busy timeout applies, instead of at the
        // first write, where a WAL snapshot conflict would fail at once.
        case (.sqlite, _): statement = exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE"
        case (.postgres, .read): statement = "BEGIN READ ONLY"
        case (.postgres, .write): statement = "BEGIN"
        // One round trip: the setting lasts until this transaction ends.
        case (.postgres, .rebuildable): statement = "BEGIN; SET LOCAL synchronous_commit TO off"
        case (.postgres, .serializable): statement = "BEGIN ISOLATION LEVEL SERIALIZABLE"
        case (.postgres, .snapshot): statement = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        }
        try driver.execute(statement)
        isInTransaction = true
        pendingNotifications = []
    }

    func commit() throws {
        let driver = try borrowed()
        if let postgres = driver as? PostgresDriverConnection, postgres.transactionFailed {
            // PostgreSQL answers COMMIT of a failed transaction with a rollback, not an error.
            throw SQLError(.misuse, message: "a statement of this transaction failed, so it cannot commit")
        }
        do {
            try driver.execute("COMMIT")
        } catch let error as SQLError where error.kind == .connectionLost {
            isInTransaction = false
            throw SQLError(.commitOutcomeUnknown, code: error.code,
                           message: "the connection broke during COMMIT, so the transaction may or may not have committed: \(error.message)",
                           context: "COMMIT")
        }
        isInTransaction = false
        let notifications = pendingNotifications
        pendingNotifications = []
        if !notifications.isEmpty { hub?.publish(notifications) }
    }

    /// Rolls back the open transaction, if any; a broken connection has rolled back already.
    func rollback() {
        guard isInTransaction else { return }
        isInTransaction = false
        pendingNotifications = []
        if let driver, !driver.isBroken { try? driver.execute("ROLLBACK") }
    }

    /// Ends the loan: later calls throw.
    func invalidate() {
        rollback()
        driver = nil
    }

    private func borrowed() throws -> any DriverConnection {
        guard let driver else {
            throw SQLError(.misuse, message: "the connection was used after its closure returned; borrow one with SQLDatabase.withConnection")
        }
        return driver
    }
}
