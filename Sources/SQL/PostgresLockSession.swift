import POSIX
import Synchronization

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
