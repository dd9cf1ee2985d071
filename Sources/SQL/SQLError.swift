/// A failed database call, the same type for both engines.
///
/// `kind` is what callers branch on (a unique violation is a conflict, `connectionLost` a 503);
/// `code` keeps the engine's own code (`SQLITE_CONSTRAINT_UNIQUE (2067)`, SQLSTATE `23505`) and
/// `message` its own words, for logs.
public struct SQLError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, independent of the engine.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A UNIQUE or PRIMARY KEY constraint refused the row.
        case uniqueViolation
        /// A FOREIGN KEY constraint refused the row.
        case foreignKeyViolation
        /// A NOT NULL column was given NULL.
        case notNullViolation
        /// A CHECK constraint refused the row.
        case checkViolation
        /// PostgreSQL could not serialize the transaction (SQLSTATE 40001); running it again may succeed.
        case serializationFailure
        /// PostgreSQL broke a deadlock by failing this transaction (40P01); running it again may succeed.
        case deadlock
        /// Another connection held a lock for longer than the wait allowed (SQLITE_BUSY, 55P03).
        case busy
        /// The connection broke while in use, or the server ended the session.
        case connectionLost
        /// No connection could be made: server down, wrong host, refused login, too many connections.
        case connectionFailed
        /// The connection broke while COMMIT was on its way: the transaction may or may not have committed.
        case commitOutcomeUnknown
        /// Every pooled connection stayed in use for longer than the pool's wait.
        case poolTimeout
        /// The disk (or the database's size cap) is full: SQLITE_FULL, ENOSPC, 53100.
        case diskFull
        /// The database refuses writes (a read-only file or a standby server).
        case readOnly
        /// The database file is damaged, or is not a database.
        case corrupt
        /// The statement does not parse, or names a table or column that does not exist.
        case invalidStatement
        /// The database's schema is newer than this build knows.
        case schemaTooNew
        /// A column held a value that does not convert to the asked-for Swift type.
        case decoding
        /// The API was used wrongly (a closed connection, a connection kept past its closure).
        case misuse
        /// Anything else; `code` and `message` say what.
        case other
    }

    public let kind: Kind
    /// The engine's code: `SQLITE_BUSY (5)` or `SQLSTATE 40001`; empty for errors of this module's own.
    public let code: String
    /// The engine's message, or this module's.
    public let message: String
    /// The SQL or the operation that failed.
    public let context: String

    /// An error as the drivers report it.
    public init(_ kind: Kind, code: String = "", message: String, context: String = "") {
        self.kind = kind
        self.code = code
        self.message = message
        self.context = context
    }

    /// Whether running the same transaction again, from its start, can succeed.
    public var isTransient: Bool {
        switch kind {
        case .serializationFailure, .deadlock, .busy, .connectionLost, .connectionFailed, .poolTimeout: return true
        default: return false
        }
    }

    public var description: String {
        var text = message
        if !code.isEmpty { text += " [\(code)]" }
        if !context.isEmpty { text += " (\(context.count > 200 ? context.prefix(200) + "…" : Substring(context)))" }
        return text
    }

    /// A value that did not convert.
    static func decoding(_ value: SQLValue, as expected: String) -> SQLError {
        SQLError(.decoding, message: "expected \(expected), found \(value.kindName) \(value)")
    }

    /// A copy that says which column was being read.
    func inColumn(_ column: String) -> SQLError {
        SQLError(kind, code: code, message: "column \(column): \(message)", context: context)
    }
}

extension SQLError.Kind {
    /// The kind of a SQLite (extended) result code; `systemErrno` is `sqlite3_system_errno`.
    static func sqlite(code: Int32, systemErrno: Int32 = 0) -> SQLError.Kind {
        switch code {
        case 2067, 1555: return .uniqueViolation                  // CONSTRAINT_UNIQUE, CONSTRAINT_PRIMARYKEY
        case 787: return .foreignKeyViolation                      // CONSTRAINT_FOREIGNKEY
        case 1299: return .notNullViolation                        // CONSTRAINT_NOTNULL
        case 275: return .checkViolation                           // CONSTRAINT_CHECK
        default: break
        }
        switch code & 0xff {
        case 5, 6: return .busy                                    // BUSY (and BUSY_SNAPSHOT …), LOCKED
        case 13: return .diskFull                                  // FULL
        case 10 where systemErrno == 28: return .diskFull          // IOERR with ENOSPC
        case 8: return .readOnly                                   // READONLY
        case 11, 26: return .corrupt                               // CORRUPT, NOTADB
        case 14: return .connectionFailed                          // CANTOPEN
        case 1: return .invalidStatement                           // ERROR: syntax, no such table/column
        case 21: return .misuse                                    // MISUSE
        default: return .other
        }
    }

    /// The kind of a PostgreSQL SQLSTATE (Appendix A of the PostgreSQL manual).
    static func postgres(sqlstate: String) -> SQLError.Kind {
        switch sqlstate {
        case "23505": return .uniqueViolation
        case "23503": return .foreignKeyViolation
        case "23502": return .notNullViolation
        case "23514": return .checkViolation
        case "40001": return .serializationFailure
        case "40P01": return .deadlock
        case "55P03": return .busy                                 // lock_not_available
        case "53100": return .diskFull
        case "25006": return .readOnly                             // read_only_sql_transaction
        case "XX001", "XX002": return .corrupt                     // data_corrupted, index_corrupted
        case "57P01", "57P02", "57P03": return .connectionLost     // admin_shutdown, crash_shutdown, cannot_connect_now
        case "53300": return .connectionFailed                     // too_many_connections
        case "28000", "28P01": return .connectionFailed            // refused login
        default: break
        }
        switch sqlstate.prefix(2) {
        case "08": return .connectionLost                          // connection exceptions
        case "42": return .invalidStatement                        // syntax error or access rule violation
        default: return .other
        }
    }
}
