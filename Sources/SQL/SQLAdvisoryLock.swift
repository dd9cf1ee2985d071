import POSIX
import Synchronization

/// The name of an advisory lock: a 64-bit number, usually made from a purpose and an id.
public struct SQLLockKey: Hashable, Sendable, CustomStringConvertible {
    public let value: Int64

    public init(_ value: Int64) { self.value = value }

    /// A key for `id` within `namespace` (`SQLLockKey("pyramid-build", 42)`): FNV-1a of both, so
    /// different purposes do not collide in the database's one key space.
    public init(_ namespace: String, _ id: Int64) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in namespace.utf8 + [0] + withUnsafeBytes(of: id.littleEndian, Array.init) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        value = Int64(bitPattern: hash)
    }

    public var description: String { String(value) }
}

/// A held advisory lock. It is released by `release()`, when this object goes away, or when the
/// session holding it ends: the process exits or dies, or (PostgreSQL) its connection breaks.
///
/// These locks are for claims another replica must be able to take over: a pyramid build, the
/// one folder scanner. PostgreSQL: a session lock (`pg_try_advisory_lock`) on one connection per
/// database that holds every lock of this process. SQLite: an open-file-description lock on one
/// byte of `<database>-locks`, which the kernel drops when the process ends, so two processes on
/// one data folder exclude each other too. Within one process a key is held once.
public final class SQLAdvisoryLock: Sendable {
    public let key: SQLLockKey
    private let session: any LockSession
    private let ticket: Int64

    init(key: SQLLockKey, session: any LockSession, ticket: Int64) {
        self.key = key
        self.session = session
        self.ticket = ticket
    }

    deinit { session.release(key, ticket: ticket) }

    /// Whether the lock is still held: false after `release()`, or once its session is known to
    /// have ended (checked without a round trip).
    public var isHeld: Bool { session.isHeld(key, ticket: ticket) }

    /// Releases the lock; later calls do nothing.
    public func release() { session.release(key, ticket: ticket) }
}

/// Where a database's advisory locks live.
protocol LockSession: Sendable {
    /// A ticket for the lock, or nil when someone (here or elsewhere) holds `key`.
    func tryLock(_ key: SQLLockKey) throws -> Int64?
    func isHeld(_ key: SQLLockKey, ticket: Int64) -> Bool
    func release(_ key: SQLLockKey, ticket: Int64)
}

/// Every PostgreSQL advisory lock of this process, on one connection of its own.
final class PostgresLockSession: LockSession {
    private struct State {
        var connection: PostgresDriverConnection?
        /// Held keys and the ticket of each; a ticket is never reused, so a released lock's
        /// object cannot release a later holder of the same key.
        var held: [Int64: Int64] = [:]
        var lastTicket: Int64 = 0
    }

    private let state = Mutex(State())
    private let connect: @Sendable () throws -> PostgresDriverConnection

    init(connect: @escaping @Sendable () throws -> PostgresDriverConnection) {
        self.connect = connect
    }

    func tryLock(_ key: SQLLockKey) throws -> Int64? {
        try state.withLock { state -> Int64? in
            if let connection = state.connection, !connection.isUsable() { Self.forget(&state) }
            guard state.held[key.value] == nil else { return nil }
            // A session that died since it was last checked holds no locks any more: one fresh try.
            for attempt in 1...2 {
                let connection = try state.connection ?? connect()
                state.connection = connection
                do {
                    let row = try connection.perform("SELECT pg_try_advisory_lock($1)", [.integer(key.value)]).rows.first
                    guard try row?.decode(0, as: Bool.self) == true else { return nil }
                    break
                } catch let error as SQLError {
                    guard connection.isBroken else { throw error }
                    Self.forget(&state)
                    if attempt == 2 { throw error }
                }
            }
            state.lastTicket += 1
            state.held[key.value] = state.lastTicket
            return state.lastTicket
        }
    }

    func isHeld(_ key: SQLLockKey, ticket: Int64) -> Bool {
        state.withLock { state in
            guard state.held[key.value] == ticket, let connection = state.connection else { return false }
            if connection.isUsable() { return true }
            Self.forget(&state)
            return false
        }
    }

    func release(_ key: SQLLockKey, ticket: Int64) {
        state.withLock { state in
            guard state.held[key.value] == ticket, let connection = state.connection else { return }
            state.held[key.value] = nil
            if (try? connection.perform("SELECT pg_advisory_unlock($1)", [.integer(key.value)])) == nil, connection.isBroken {
                Self.forget(&state)
            }
        }
    }

    /// The session ended: its locks went with it.
    private static func forget(_ state: inout State) {
        state.connection?.close()
        state.connection = nil
        state.held = [:]
    }
}

/// SQLite's advisory locks: one byte each of a lock file, locked through its own file description.
final class FileLockSession: LockSession {
    private struct Held {
        let fd: FileDescriptor
        let ticket: Int64
    }

    private let path: String
    private let state = Mutex<(held: [Int64: Held], lastTicket: Int64)>(([:], 0))

    init(path: String) {
        self.path = path
    }

    func tryLock(_ key: SQLLockKey) throws -> Int64? {
        try state.withLock { state -> Int64? in
            guard state.held[key.value] == nil else { return nil }
            let fd: FileDescriptor
            do throws(SystemCallError) { fd = try FileDescriptor.open(path, OpenFlags.readWrite | OpenFlags.create, permissions: 0o666) } catch {
                throw SQLError(.other, message: "cannot open the lock file \(path): errno \(error.errno)")
            }
            // Byte offsets are non-negative; 62 bits of the key keep every offset in range. The
            // lock is the file description's, not the process's, so two keys of one process are
            // independent and closing one descriptor leaves the others.
            let locked: Bool
            do throws(SystemCallError) { locked = try fd.tryLockByte(at: Int64(bitPattern: UInt64(bitPattern: key.value) >> 2)) } catch {
                fd.close()
                throw SQLError(.other, message: "cannot lock \(path): errno \(error.errno)")
            }
            guard locked else {
                fd.close()
                return nil
            }
            state.lastTicket += 1
            state.held[key.value] = Held(fd: fd, ticket: state.lastTicket)
            return state.lastTicket
        }
    }

    func isHeld(_ key: SQLLockKey, ticket: Int64) -> Bool {
        state.withLock { $0.held[key.value]?.ticket == ticket }
    }

    func release(_ key: SQLLockKey, ticket: Int64) {
        state.withLock { state in
            guard let held = state.held[key.value], held.ticket == ticket else { return }
            state.held[key.value] = nil
            held.fd.close()
        }
    }
}
