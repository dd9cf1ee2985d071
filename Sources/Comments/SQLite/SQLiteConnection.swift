internal import CSQLite
import Foundation

/// One SQLite connection with a cache of prepared statements.
///
/// The only file that touches the SQLite C API: every result code is turned into a
/// `SQLiteError` carrying `sqlite3_errmsg` right here. A connection is opened in
/// multi-thread mode (no mutex of its own), so its owner must use it from one thread
/// at a time; `SQLiteCommentStore` guards each connection with a lock.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    /// Prepared statements by SQL text, reused across calls: parsing is the costly part of a small query.
    private var statements: [String: OpaquePointer] = [:]
    let path: String

    /// Opens (and creates, unless `create` is false) the database at `path`.
    init(path: String, create: Bool = true) throws {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(db)
            throw SQLiteError(code: Int(code), message: message, context: "open \(path)")
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
    }

    deinit { close() }

    /// Finalizes every cached statement and closes the connection; later calls throw.
    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Waits up to `milliseconds` for another connection's lock instead of failing at once with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int) throws {
        try check(sqlite3_busy_timeout(try open(), Int32(milliseconds)), "busy_timeout")
    }

    /// Runs one or more statements that return nothing of interest (schema, PRAGMA, BEGIN/COMMIT).
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(try open(), sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: Int(code), message: message, context: sql)
        }
    }

    /// Runs one statement with bindings; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> Int {
        try withStatement(sql, bindings) { statement in
            let code = sqlite3_step(statement)
            guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code, sql) }
            return Int(sqlite3_changes(try open()))
        }
    }

    /// Runs one query and hands every row to `body`, which must not keep the row.
    func query(_ sql: String, _ bindings: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        try withStatement(sql, bindings) { statement in
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else { throw error(code, sql) }
                try body(SQLiteRow(statement: statement))
            }
        }
    }

    /// The first column of the first row as an integer, or nil when there is no row.
    func scalar(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> Int? {
        var value: Int?
        try query(sql, bindings) { row in
            if value == nil { value = row.int(0) }
        }
        return value
    }

    /// The rowid of the last successful INSERT on this connection.
    var lastInsertRowID: Int { handle.map { Int(sqlite3_last_insert_rowid($0)) } ?? 0 }

    private func open() throws -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: Int(SQLITE_MISUSE), message: "the connection is closed", context: path) }
        return handle
    }

    /// A cached prepared statement, bound, handed to `body`, then reset so it holds no read lock.
    private func withStatement<T>(_ sql: String, _ bindings: [SQLiteValue], _ body: (OpaquePointer) throws -> T) throws -> T {
        let db = try open()
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard code == SQLITE_OK, let prepared else { throw error(code, sql) }
            statements[sql] = prepared
            statement = prepared
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, position)
            case .integer(let n): code = sqlite3_bind_int64(statement, position, Int64(n))
            case .text(let s): code = sqlite3_bind_text(statement, position, s, -1, SQLiteConnection.transient)
            }
            guard code == SQLITE_OK else { throw error(code, sql) }
        }
        return try body(statement)
    }

    private func error(_ code: Int32, _ sql: String) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return SQLiteError(code: Int(code), message: message, context: sql)
    }

    private func check(_ code: Int32, _ context: String) throws {
        guard code == SQLITE_OK else { throw error(code, context) }
    }

    /// SQLITE_TRANSIENT, a C macro Swift cannot import: SQLite copies the bound text before returning.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A value bound to a `?` parameter.
enum SQLiteValue {
    case null
    case integer(Int)
    case text(String)
}

/// The current row of a running query; valid only inside the query's row closure.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    func int(_ column: Int) -> Int { Int(sqlite3_column_int64(statement, Int32(column))) }

    func text(_ column: Int) -> String {
        guard let bytes = sqlite3_column_text(statement, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func isNull(_ column: Int) -> Bool { sqlite3_column_type(statement, Int32(column)) == SQLITE_NULL }
}
