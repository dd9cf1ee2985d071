import Observability

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
    /// `limits.maxConnectionsPerAddress`, over every loop; 0 for no cap.
    let maxConnectionsPerAddress: Int
    /// Shared by every loop's context: each remote address's open connections, whichever loop holds them.
    let addressConnections: AddressConnections

    init(router: Router, limits: HTTPLimits, logger: Logger, observer: any HTTPServerObserver, pool: WorkerPool, serverName: String,
         openConnections: ConnectionCount, addressConnections: AddressConnections) {
        self.maxConnectionsPerAddress = max(0, limits.maxConnectionsPerAddress)
        self.addressConnections = addressConnections
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
