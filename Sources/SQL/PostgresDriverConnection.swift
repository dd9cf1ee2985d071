private import CLibPQ
import Foundation
import POSIX
import Synchronization

/// One PostgreSQL connection through libpq: the only file that touches libpq. Results come back in
/// text form and are read into `SQLValue`s by column type; errors become `SQLError`s from their
/// SQLSTATE, or `connectionLost` when the connection itself went away.
///
/// The pool (or the listener, or the lock session) lends it to one thread at a time. Each call
/// holds `session` while it runs, so the compiler sees that the libpq connection and its
/// statements are never used by two threads at once; the lock is never contended.
final class PostgresDriverConnection: DriverConnection {
    private let session: Mutex<Session>
    /// The server as messages name it.
    let server: String

    var engine: SQLEngine { .postgres }

    /// Connects, or throws `connectionFailed` naming the server and saying why in libpq's words.
    init(url: PostgresURL, options: PostgresOptions) throws {
        server = url.serverDescription
        session = Mutex(try Session(url: url, options: options))
    }

    deinit { close() }

    func close() { session.withLock { $0.close() } }

    var isBroken: Bool { session.withLock { $0.isBroken } }

    func resetAfterLoan() { session.withLock { $0.resetAfterLoan() } }

    var statementStatistics: SQLStatementStatistics {
        session.withLock { SQLStatementStatistics(prepares: $0.statements.prepares, hits: $0.statements.hits, cached: $0.statements.count) }
    }

    /// The connection's socket, to wait on for notifications.
    var socket: Int32 { session.withLock { $0.socket } }

    /// Whether a transaction is open (or failed and not yet rolled back) on this connection.
    var isInTransaction: Bool { session.withLock { $0.isInTransaction } }

    /// Whether a statement of the open transaction failed, so that COMMIT would roll back.
    var transactionFailed: Bool { session.withLock { $0.transactionFailed } }

    func isUsable() -> Bool { session.withLock { $0.isUsable() } }

    func execute(_ sql: String) throws { try session.withLock { try $0.execute(sql) } }

    func perform(_ sql: String, _ bindings: [SQLValue]) throws -> SQLResult {
        try session.withLock { try $0.perform(sql, bindings) }
    }

    /// Starts receiving notifications on `channel`.
    func listen(_ channel: String) throws { try session.withLock { try $0.listen(channel) } }

    /// Reads what has arrived and returns the notifications among it; throws `connectionLost` when the connection went away.
    func receiveNotifications() throws -> [SQLNotification] { try session.withLock { try $0.receiveNotifications() } }

    /// The libpq connection and its prepared statements: what each call changes.
    private struct Session {
        var connection: OpaquePointer?
        var statements: StatementCache<String>
        var nextStatementNumber = 0
        let server: String

        /// Connects, or throws `connectionFailed` naming the server and saying why in libpq's words.
        init(url: PostgresURL, options: PostgresOptions) throws {
            server = url.serverDescription
            statements = StatementCache(capacity: options.statementCacheCapacity)
            let pairs = url.connectionKeywords(defaults: [
                ("connect_timeout", String(options.connectTimeoutSeconds)),
                ("application_name", options.applicationName),
                // Lets a dead peer be noticed on an otherwise idle connection.
                ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
            ])
            let keywords: [UnsafeMutablePointer<CChar>?] = pairs.map { Memory.cString($0.0) } + [nil]
            let values: [UnsafeMutablePointer<CChar>?] = pairs.map { Memory.cString($0.1) } + [nil]
            defer {
                keywords.forEach { $0?.deallocate() }
                values.forEach { $0?.deallocate() }
            }
            let conn = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { k in
                values.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in
                    PQconnectdbParams(k.baseAddress, v.baseAddress, 0)
                }
            }
            guard let conn, PQstatus(conn) == CONNECTION_OK else {
                let message = conn.map { Self.firstLines(String(cString: PQerrorMessage($0))) } ?? "out of memory"
                PQfinish(conn)
                throw SQLError(.connectionFailed, message: "cannot connect to PostgreSQL at \(url.serverDescription): \(message)",
                               context: "connect to \(url)")
            }
            // NOTICEs ("relation already exists, skipping") would otherwise go to stderr.
            PQsetNoticeProcessor(conn, { _, _ in }, nil)
            connection = conn
        }

        mutating func close() {
            if let connection { PQfinish(connection) }
            connection = nil
        }

        var isBroken: Bool { connection.map { PQstatus($0) != CONNECTION_OK } ?? true }

        func resetAfterLoan() {
            if isInTransaction && !isBroken { try? execute("ROLLBACK") }
        }

        var socket: Int32 { connection.map { PQsocket($0) } ?? -1 }

        var isInTransaction: Bool {
            guard let connection else { return false }
            let status = PQtransactionStatus(connection)
            return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
        }

        var transactionFailed: Bool {
            connection.map { PQtransactionStatus($0) == PQTRANS_INERROR } ?? false
        }

        /// Whether a connection that sat idle can be used again, without a round trip. An idle
        /// connection that is not listening is sent nothing, except the server's goodbye when it ends
        /// the session (restart, `pg_terminate_backend`): an error, then the close. So anything
        /// waiting on the socket means the session is over, even before the close itself arrives.
        func isUsable() -> Bool {
            guard let connection, PQstatus(connection) == CONNECTION_OK else { return false }
            guard let ready = try? Poll.readable([PQsocket(connection)], timeout: .zero) else { return false }
            return !ready[0]
        }

        func execute(_ sql: String) throws {
            try Self.execute(sql, on: try open(), server: server)
        }

        private static func execute(_ sql: String, on conn: OpaquePointer, server: String) throws {
            let result = PQexec(conn, sql)
            defer { PQclear(result) }
            try check(result, sql, accepting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY], connection: conn, server: server)
        }

        mutating func perform(_ sql: String, _ bindings: [SQLValue]) throws -> SQLResult {
            do {
                return try performPrepared(sql, bindings)
            } catch let error as SQLError where error.code == "SQLSTATE 0A000" && !isInTransaction {
                // "cached plan must not change result type": the schema changed under the statement.
                // Outside a transaction nothing was done, so prepare it afresh and run it once more.
                if let name = statements.remove(sql) { try? execute("DEALLOCATE \(name)") }
                return try performPrepared(sql, bindings)
            }
        }

        private mutating func performPrepared(_ sql: String, _ bindings: [SQLValue]) throws -> SQLResult {
            let conn = try open()
            // The closures use copies, not `self`, which the statement cache's change holds.
            let server = self.server
            var number = nextStatementNumber
            defer { nextStatementNumber = number }
            let name = try statements.statement(for: sql, prepare: {
                number += 1
                let name = "s\(number)"
                let result = PQprepare(conn, name, sql, 0, nil)
                defer { PQclear(result) }
                try Self.check(result, sql, accepting: [PGRES_COMMAND_OK], connection: conn, server: server)
                return name
            }, evicted: { try? Self.execute("DEALLOCATE \($0)", on: conn, server: server) })

            // Text for every parameter but bytes, which go in binary so they need no escaping.
            var buffers: [UnsafeMutablePointer<CChar>?] = []
            var lengths: [Int32] = []
            var formats: [Int32] = []
            defer { buffers.forEach { $0?.deallocate() } }
            for value in bindings {
                switch value {
                case .null:
                    buffers.append(nil); lengths.append(0); formats.append(0)
                case .integer(let n):
                    buffers.append(Memory.cString(String(n))); lengths.append(0); formats.append(0)
                case .double(let d):
                    let text = d.isNaN ? "NaN" : d.isInfinite ? (d < 0 ? "-Infinity" : "Infinity") : "\(d)"
                    buffers.append(Memory.cString(text)); lengths.append(0); formats.append(0)
                case .text(let s):
                    buffers.append(Memory.cString(s)); lengths.append(0); formats.append(0)
                case .blob(let bytes):
                    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
                    bytes.withUnsafeBytes { raw in
                        if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count) }
                    }
                    buffers.append(buffer); lengths.append(Int32(bytes.count)); formats.append(1)
                }
            }
            let values = buffers.map { UnsafePointer($0) }
            let result = values.withUnsafeBufferPointer { v in
                lengths.withUnsafeBufferPointer { l in
                    formats.withUnsafeBufferPointer { f in
                        PQexecPrepared(conn, name, Int32(bindings.count), v.baseAddress, l.baseAddress, f.baseAddress, 0)
                    }
                }
            }
            defer { PQclear(result) }
            try Self.check(result, sql, accepting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK], connection: conn, server: server)
            guard let result else { return SQLResult(rows: [], changed: 0) }
            let changed = Int(String(cString: PQcmdTuples(result))) ?? 0
            guard PQresultStatus(result) == PGRES_TUPLES_OK else { return SQLResult(rows: [], changed: changed) }
            let fields = Int32(PQnfields(result))
            let columns = (0..<fields).map { String(cString: PQfname(result, $0)) }
            let types = (0..<fields).map { PQftype(result, $0) }
            var rows: [SQLRow] = []
            rows.reserveCapacity(Int(PQntuples(result)))
            for row in 0..<PQntuples(result) {
                var values: [SQLValue] = []
                values.reserveCapacity(Int(fields))
                for column in 0..<fields {
                    if PQgetisnull(result, row, column) != 0 {
                        values.append(.null)
                        continue
                    }
                    let bytes = UnsafeRawPointer(PQgetvalue(result, row, column)!).assumingMemoryBound(to: UInt8.self)
                    let text = UnsafeBufferPointer(start: bytes, count: Int(PQgetlength(result, row, column)))
                    values.append(Self.value(text, type: types[Int(column)]))
                }
                rows.append(SQLRow(columns: columns, values: values))
            }
            return SQLResult(rows: rows, changed: changed)
        }

        func listen(_ channel: String) throws {
            let conn = try open()
            guard let quoted = PQescapeIdentifier(conn, channel, channel.utf8.count) else {
                throw SQLError(.invalidStatement, message: "cannot quote the channel name \(channel)")
            }
            defer { PQfreemem(quoted) }
            try execute("LISTEN " + String(cString: quoted))
        }

        func receiveNotifications() throws -> [SQLNotification] {
            let conn = try open()
            guard PQconsumeInput(conn) != 0, PQstatus(conn) == CONNECTION_OK else {
                throw SQLError(.connectionLost, message: "the connection to PostgreSQL at \(server) was lost: "
                               + Self.firstLines(String(cString: PQerrorMessage(conn))))
            }
            var received: [SQLNotification] = []
            while let notify = PQnotifies(conn) {
                let channel = String(cString: notify.pointee.relname)
                let payload = notify.pointee.extra.map { String(cString: $0) } ?? ""
                received.append(SQLNotification(channel: channel, payload: payload))
                PQfreemem(notify)
            }
            return received
        }

        private func open() throws -> OpaquePointer {
            guard let connection else { throw SQLError(.misuse, message: "the PostgreSQL connection is closed") }
            return connection
        }

        /// Throws unless `result` has one of the `accepting` statuses.
        private static func check(_ result: OpaquePointer?, _ sql: String, accepting: [ExecStatusType],
                                  connection: OpaquePointer?, server: String) throws {
            if let result, accepting.contains(PQresultStatus(result)) { return }
            let connectionBad = connection.map { PQstatus($0) != CONNECTION_OK } ?? true
            let sqlstate = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
            var message = result.map { String(cString: PQresultErrorMessage($0)) } ?? ""
            if message.isEmpty, let connection { message = String(cString: PQerrorMessage(connection)) }
            message = Self.firstLines(message)
            let kind: SQLError.Kind
            if connectionBad {
                kind = .connectionLost
                message = "the connection to PostgreSQL at \(server) was lost: \(message)"
            } else {
                kind = sqlstate.isEmpty ? .other : .postgres(sqlstate: sqlstate)
            }
            throw SQLError(kind, code: sqlstate.isEmpty ? "" : "SQLSTATE \(sqlstate)", message: message, context: sql)
        }

        /// libpq's messages end in a newline and sometimes carry a hint on a second line; keep both, on one line.
        private static func firstLines(_ message: String) -> String {
            message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: " ")
        }

        /// A column's text form as a value, by its type's OID (`pg_type.oid`).
        private static func value(_ text: UnsafeBufferPointer<UInt8>, type: UInt32) -> SQLValue {
            switch type {
            case 16: return .integer(text.first == UInt8(ascii: "t") ? 1 : 0)                     // bool
            case 20, 21, 23, 26, 28:                                                            // int8, int2, int4, oid, xid
                return Int64(String(decoding: text, as: UTF8.self)).map { .integer($0) } ?? .text(String(decoding: text, as: UTF8.self))
            case 700, 701:                                                                      // float4, float8
                return Double(String(decoding: text, as: UTF8.self)).map { .double($0) } ?? .text(String(decoding: text, as: UTF8.self))
            case 17: return .blob(hexBytes(text))                                               // bytea, hex output
            default: return .text(String(decoding: text, as: UTF8.self))
            }
        }

        /// `\x0a1b…` → bytes.
        private static func hexBytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            func nibble(_ c: UInt8) -> UInt8 {
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
                default: return c &- UInt8(ascii: "A") &+ 10
                }
            }
            guard text.count >= 2 else { return [] }
            var out: [UInt8] = []
            out.reserveCapacity((text.count - 2) / 2)
            var i = 2
            while i + 1 < text.count {
                out.append(nibble(text[i]) << 4 | nibble(text[i + 1]))
                i += 2
            }
            return out
        }
    }
}
