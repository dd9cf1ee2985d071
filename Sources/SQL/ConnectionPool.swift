import Dispatch
import Observability
import Synchronization

/// Lends connections to one borrower at a time, at most `capacity` at once.
///
/// Connections are opened on demand and kept idle between loans, the most recently used first so
/// the warm ones stay warm. A connection the server closed while it sat idle is noticed on the
/// way out (`isUsable`) and replaced; one that broke while lent is dropped when it comes back.
/// When the server cannot be reached, attempts are spaced by `backoff`, and a borrower that comes
/// in between fails at once with the last error instead of hanging: the caller can answer 503.
final class ConnectionPool: Sendable {
    private struct State {
        var idle: [any DriverConnection] = []
        var open = 0
        var failures = 0
        var retryAt: ContinuousClock.Instant?
        var lastError: SQLError?
        var connects = 0
        var connectFailures = 0
        var closed = false
    }

    let capacity: Int
    private let waitTimeout: Duration
    private let backoff: SQLBackoff
    private let connect: @Sendable () throws -> any DriverConnection
    private let slots: DispatchSemaphore
    private let state = Mutex(State())
    private let logger: Logger
    private let server: String

    init(capacity: Int, waitTimeout: Duration, backoff: SQLBackoff, server: String, logger: Logger,
         connect: @escaping @Sendable () throws -> any DriverConnection) {
        precondition(capacity > 0, "a pool lends at least one connection")
        self.capacity = capacity
        self.waitTimeout = waitTimeout
        self.backoff = backoff
        self.connect = connect
        self.slots = DispatchSemaphore(value: capacity)
        self.logger = logger
        self.server = server
    }

    /// A connection for the caller alone, until it is handed back with `release`.
    func acquire() throws -> any DriverConnection {
        let deadline = ContinuousClock.now + waitTimeout
        guard slots.wait(timeout: deadline.dispatchTime) == .success else {
            throw SQLError(.poolTimeout, message: "all \(capacity) connections to \(server) stayed busy for \(waitTimeout)")
        }
        do {
            return try takeOrOpen()
        } catch {
            slots.signal()
            throw error
        }
    }

    /// Takes back a lent connection; a broken one is closed, and so are the idle ones.
    func release(_ connection: any DriverConnection) {
        let (keep, stale) = state.withLock { state -> (Bool, [any DriverConnection]) in
            if connection.isBroken || state.closed {
                state.open -= 1
                // A connection that broke while lent most often means the server went away (a
                // restart): the idle ones were opened to the same server and are as dead, and a
                // check on the way out does not always see it. They go now, rather than each
                // refusing one request in turn after the server is back.
                guard connection.isBroken && !state.closed else { return (false, []) }
                let stale = state.idle
                state.open -= stale.count
                state.idle = []
                return (false, stale)
            }
            state.idle.append(connection)
            return (true, [])
        }
        if !keep { connection.close() }
        stale.forEach { $0.close() }
        slots.signal()
    }

    /// Closes the idle connections; lent ones are closed as they come back.
    func close() {
        let idle = state.withLock { state -> [any DriverConnection] in
            state.closed = true
            defer { state.open -= state.idle.count; state.idle = [] }
            return state.idle
        }
        idle.forEach { $0.close() }
    }

    /// Opens one connection now if none is open, so a wrong address fails at start.
    func warmUp() throws {
        release(try acquire())
    }

    var statistics: SQLPoolStatistics {
        state.withLock {
            SQLPoolStatistics(open: $0.open, idle: $0.idle.count, capacity: capacity,
                              connects: $0.connects, connectFailures: $0.connectFailures)
        }
    }

    private func takeOrOpen() throws -> any DriverConnection {
        while let candidate = state.withLock({ $0.closed ? nil : $0.idle.popLast() }) {
            if candidate.isUsable() { return candidate }
            candidate.close()
            state.withLock { $0.open -= 1 }
        }
        let gate = state.withLock { state -> SQLError? in
            if state.closed { return SQLError(.misuse, message: "the database was closed") }
            guard let retryAt = state.retryAt, let lastError = state.lastError, ContinuousClock.now < retryAt else { return nil }
            return SQLError(lastError.kind, code: lastError.code,
                            message: "\(lastError.message) (next attempt in \(ContinuousClock.now.duration(to: retryAt).secondsText))",
                            context: lastError.context)
        }
        if let gate { throw gate }
        do {
            let connection = try connect()
            let recovered = state.withLock { state -> Bool in
                defer {
                    state.open += 1
                    state.connects += 1
                    state.failures = 0
                    state.retryAt = nil
                    state.lastError = nil
                }
                return state.failures > 0
            }
            if recovered { logger.info("connected to the database again", [("server", server)]) }
            return connection
        } catch let error as SQLError {
            let failures = state.withLock { state -> Int in
                state.failures += 1
                state.connectFailures += 1
                state.retryAt = ContinuousClock.now + backoff.delay(afterFailures: state.failures, jitter: Double.random(in: 0..<1))
                state.lastError = error
                return state.failures
            }
            if failures == 1 { logger.warning("cannot connect to the database", [("server", server), ("error", error.message)]) }
            throw error
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// `0.35 s`, for messages.
    var secondsText: String {
        let tenths = Double(nanoseconds) / 1e9
        return "\((tenths * 100).rounded() / 100) s"
    }
}
