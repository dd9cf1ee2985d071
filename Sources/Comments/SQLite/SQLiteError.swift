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

    /// Whether the disk refused the write: full (SQLITE_FULL), or a write or sync that failed
    /// (SQLITE_IOERR_WRITE, _FSYNC, _TRUNCATE, _SHMSIZE …; ENOSPC and EFBIG arrive as these).
    /// The data is untouched and the same call can succeed once there is room again.
    public var isStorageFull: Bool {
        if code & 0xff == 13 { return true }
        guard code & 0xff == 10 else { return false }
        // SQLITE_IOERR_WRITE 778, _FSYNC 1034, _DIR_FSYNC 1290, _TRUNCATE 1546, _SHMSIZE 4874.
        return [778, 1034, 1290, 1546, 4874].contains(code)
    }

    public var description: String { "SQLite error \(code): \(message) (\(context))" }
}
