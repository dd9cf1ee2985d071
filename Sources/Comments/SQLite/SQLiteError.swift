/// A failed SQLite call: its result code, SQLite's own message, and what was being done.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The (extended) result code, e.g. 5 for SQLITE_BUSY or 11 for SQLITE_CORRUPT.
    public let code: Int
    /// `sqlite3_errmsg` at the time of the failure.
    public let message: String
    /// The SQL or the call that failed.
    public let context: String

    /// An error as the SQLite wrapper reports it.
    public init(code: Int, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// Whether another connection held the lock for longer than the busy timeout.
    public var isBusy: Bool { code & 0xff == 5 || code & 0xff == 6 }

    public var description: String { "SQLite error \(code): \(message) (\(context))" }
}
