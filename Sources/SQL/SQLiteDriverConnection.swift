private import CSQLite
private import CSQLiteFunctions
import Synchronization

/// One SQLite connection: the only file that touches the SQLite C API. Every result code becomes
/// an `SQLError` here, with `sqlite3_errmsg` and the kind from `SQLError.Kind.sqlite`.
///
/// Opened without SQLite's own mutex (`SQLITE_OPEN_NOMUTEX`): the pool guarantees one user at a
/// time. Each call holds `session` while it runs, so the compiler sees that the handle and its
/// statements are never used by two threads at once; the lock is never contended.
final class SQLiteDriverConnection: DriverConnection {
    private let session: Mutex<Session>
    let path: String

    var engine: SQLEngine { .sqlite }

    /// Opens (creating when missing) the database at `path` in WAL mode with `options`.
    init(path: String, options: SQLiteOptions) throws {
        self.path = path
        session = Mutex(try Session(path: path, options: options))
    }

    deinit { close() }

    func close() { session.withLock { $0.close() } }

    var isBroken: Bool { session.withLock { $0.handle == nil } }

    func isUsable() -> Bool { session.withLock { $0.handle != nil } }

    func resetAfterLoan() { session.withLock { $0.resetAfterLoan() } }

    var statementStatistics: SQLStatementStatistics {
        session.withLock { SQLStatementStatistics(prepares: $0.statements.prepares, hits: $0.statements.hits, cached: $0.statements.count) }
    }

    func execute(_ sql: String) throws { try session.withLock { try $0.execute(sql) } }

    func perform(_ sql: String, _ bindings: [SQLValue]) throws -> SQLResult {
        try session.withLock { try $0.perform(sql, bindings) }
    }

    func integers(_ sql: String, _ bindings: [SQLValue]) throws -> [Int64] {
        try session.withLock { try $0.integers(sql, bindings) }
    }

    /// The open handle and its prepared statements: what each call changes.
    private struct Session {
        var handle: OpaquePointer?
        var statements: StatementCache<OpaquePointer>
        let path: String

        /// Opens (creating when missing) the database at `path` in WAL mode with `options`.
        init(path: String, options: SQLiteOptions) throws {
            self.path = path
            statements = StatementCache(capacity: options.statementCacheCapacity)
            var db: OpaquePointer?
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
            let code = sqlite3_open_v2(path, &db, flags, nil)
            guard code == SQLITE_OK, let db else {
                let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
                sqlite3_close_v2(db)
                throw SQLError(.sqlite(code: code), code: Self.codeName(code), message: "cannot open the SQLite database \(path): \(message)")
            }
            sqlite3_extended_result_codes(db, 1)
            handle = db
            sqlite3_busy_timeout(db, Int32(clamping: options.busyTimeoutMilliseconds))
            let added = photoscroll_sqlite_add_functions(db)
            guard added == SQLITE_OK else {
                close()
                throw SQLError(.sqlite(code: added), code: Self.codeName(added),
                               message: "cannot add phrase_score to the SQLite database \(path): this SQLite has no FTS5")
            }
            do {
                try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = \(options.synchronous.rawValue); PRAGMA foreign_keys = ON")
            } catch {
                close()
                throw error
            }
        }

        mutating func close() {
            statements.removeAll { sqlite3_finalize($0) }
            if let handle { sqlite3_close_v2(handle) }
            handle = nil
        }

        func resetAfterLoan() {
            if let handle, sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
        }

        func execute(_ sql: String) throws {
            var errorMessage: UnsafeMutablePointer<CChar>?
            let code = sqlite3_exec(try open(), sql, nil, nil, &errorMessage)
            if code != SQLITE_OK {
                let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
                sqlite3_free(errorMessage)
                throw Self.error(sqlite3_extended_errcode(handle), message: message, sql, handle: handle)
            }
        }

        mutating func perform(_ sql: String, _ bindings: [SQLValue]) throws -> SQLResult {
            try withStatement(sql, bindings) { db, statement in
                var rows: [SQLRow] = []
                var columns: [String]?
                while try Self.step(statement, db, sql) {
                    let count = Int(sqlite3_column_count(statement))
                    if columns == nil {
                        columns = (0..<count).map { String(cString: sqlite3_column_name(statement, Int32($0))) }
                    }
                    rows.append(SQLRow(columns: columns!, values: (0..<count).map { Self.value(statement, Int32($0)) }))
                }
                let changed = sqlite3_stmt_readonly(statement) != 0 ? 0 : Int(sqlite3_changes64(db))
                return SQLResult(rows: rows, changed: changed)
            }
        }

        mutating func integers(_ sql: String, _ bindings: [SQLValue]) throws -> [Int64] {
            try withStatement(sql, bindings) { db, statement in
                var values: [Int64] = []
                while try Self.step(statement, db, sql) {
                    for column in 0..<sqlite3_column_count(statement) {
                        guard sqlite3_column_type(statement, column) == SQLITE_INTEGER else {
                            throw SQLError(.decoding, message: "column \(column) of a row is not an integer", context: sql)
                        }
                        values.append(sqlite3_column_int64(statement, column))
                    }
                }
                return values
            }
        }

        /// Runs `body` with the cached statement of `sql`, its parameters bound; resets it after.
        /// The closures get what they need as arguments: `self` is being changed while they run.
        private mutating func withStatement<T>(_ sql: String, _ bindings: [SQLValue], _ body: (OpaquePointer, OpaquePointer) throws -> T) throws -> T {
            let db = try open()
            let statement = try statements.statement(for: sql, prepare: {
                var prepared: OpaquePointer?
                let text = SQLDialect(.sqlite).statement(sql)
                let code = sqlite3_prepare_v3(db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
                guard code == SQLITE_OK, let prepared else { throw Self.error(code, sql, handle: db) }
                return prepared
            }, evicted: { sqlite3_finalize($0) })
            // Reset at once so a finished statement holds no read snapshot while it sits in the cache.
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            let expected = Int(sqlite3_bind_parameter_count(statement))
            guard expected == bindings.count else {
                throw SQLError(.misuse, message: "the statement has \(expected) parameters but \(bindings.count) values were given", context: sql)
            }
            for (index, value) in bindings.prefix(expected).enumerated() {
                try Self.bind(value, at: Int32(index + 1), statement, sql, handle: db)
            }
            return try body(db, statement)
        }

        /// Steps `statement`: true with a row to read, false when done.
        private static func step(_ statement: OpaquePointer, _ db: OpaquePointer, _ sql: String) throws -> Bool {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return false }
            guard code == SQLITE_ROW else { throw error(sqlite3_extended_errcode(db), sql, handle: db) }
            return true
        }

        private static func bind(_ value: SQLValue, at position: Int32, _ statement: OpaquePointer, _ sql: String, handle: OpaquePointer) throws {
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, position)
            case .integer(let n): code = sqlite3_bind_int64(statement, position, n)
            case .double(let d): code = sqlite3_bind_double(statement, position, d)
            case .text(let s): code = sqlite3_bind_text(statement, position, s, Int32(s.utf8.count), Self.transient)
            case .blob(let bytes):
                // An empty buffer has no base address, which SQLite would bind as NULL.
                code = bytes.isEmpty ? sqlite3_bind_zeroblob(statement, position, 0)
                    : bytes.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            guard code == SQLITE_OK else { throw error(code, sql, handle: handle) }
        }

        private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT: return .double(sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                guard let bytes = sqlite3_column_text(statement, column) else { return .text("") }
                let count = Int(sqlite3_column_bytes(statement, column))
                return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(statement, column))
                guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
            default: return .null
            }
        }

        private func open() throws -> OpaquePointer {
            guard let handle else { throw SQLError(.misuse, message: "the SQLite connection is closed", context: path) }
            return handle
        }

        private static func error(_ code: Int32, message: String? = nil, _ sql: String, handle: OpaquePointer?) -> SQLError {
            let extended = code == SQLITE_OK ? SQLITE_ERROR : code
            let text = message ?? handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(extended))
            let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
            return SQLError(.sqlite(code: extended, systemErrno: systemErrno), code: Self.codeName(extended), message: text, context: sql)
        }

        private static func codeName(_ code: Int32) -> String { "SQLite \(code)" }

        /// SQLITE_TRANSIENT, a C macro Swift cannot import: SQLite copies the bound bytes before returning.
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }
}
