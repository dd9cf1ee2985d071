/// One engine connection as the pool and `SQLConnection` see it. Exactly one thread uses a
/// connection at a time; the pool hands it over under its lock.
protocol DriverConnection: AnyObject, Sendable {
    var engine: SQLEngine { get }
    /// Runs SQL text without parameters, possibly several statements (schema, BEGIN, COMMIT).
    func execute(_ sql: String) throws
    /// Runs one statement (with `$n` placeholders) through the statement cache.
    func perform(_ sql: String, _ bindings: [SQLValue]) throws -> SQLResult
    /// Runs one statement whose columns are all integers and returns their values, row after
    /// row: for the statements that read thousands of ids, without a row object each.
    func integers(_ sql: String, _ bindings: [SQLValue]) throws -> [Int64]
    /// True once the connection is known to be unusable; the pool then drops it.
    var isBroken: Bool { get }
    /// A cheap check before a pooled connection is handed out again: false when the server is
    /// known to have closed the session while it sat idle.
    func isUsable() -> Bool
    /// Rolls back a transaction the borrower left open (its own `BEGIN`), so the next borrower starts clean.
    func resetAfterLoan()
    var statementStatistics: SQLStatementStatistics { get }
    func close()
}

extension DriverConnection {
    func integers(_ sql: String, _ bindings: [SQLValue]) throws -> [Int64] {
        try perform(sql, bindings).rows.flatMap { row in
            try row.values.indices.map { try row.decode($0, as: Int64.self) }
        }
    }
}
