import Observability
import Synchronization

/// What an event loop needs of its server: read-only apart from the connection count, which
/// all loops share.
///
/// Each loop has its own, with its own copies of the routes: every request retains its context
/// and its route, and a count that two cores change by turns makes each of them wait for the
/// other's cache line. The copies share everything else (handlers, logger, pool); the observer
/// is the one the server's observer hands this loop.
final class ServerContext: Sendable {
    /// This loop's routes and how their answers are made.
    let responder: Responder
    let limits: HTTPLimits
    let logger: Logger
    let observer: any HTTPServerObserver
    let pool: WorkerPool
    let serverName: String
    /// Shared by every loop's context: the cap on open connections is the server's.
    let openConnections: ConnectionCount
    /// Logged per request only when the logger would keep info lines.
    let logsRequests: Bool
    /// This loop's share of `limits.maxConnectionsPerAddress`; 0 for no cap.
    let maxConnectionsPerAddress: Int

    init(router: Router, limits: HTTPLimits, logger: Logger, observer: any HTTPServerObserver, pool: WorkerPool, serverName: String,
         openConnections: ConnectionCount, loops: Int = 1) {
        let cap = limits.maxConnectionsPerAddress
        self.maxConnectionsPerAddress = cap <= 0 ? 0 : max(1, (cap + loops - 1) / max(1, loops))
        self.responder = Responder(router: router, logger: logger)
        self.openConnections = openConnections
        self.limits = limits
        self.logger = logger
        self.observer = observer
        self.pool = pool
        self.serverName = serverName
        self.logsRequests = logger.level <= .info
    }
}

/// The open connections of the whole server, shared by the loops' contexts.
final class ConnectionCount: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// Counts one more; returns the new count.
    func add() -> Int { count.add(1, ordering: .relaxed).newValue }

    func subtract() { count.subtract(1, ordering: .relaxed) }
}
