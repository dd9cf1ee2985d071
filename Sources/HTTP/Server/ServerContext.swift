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

/// The open connections of the whole server, shared by the loops' contexts.
final class ConnectionCount: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// Counts one more; returns the new count.
    func add() -> Int { count.add(1, ordering: .relaxed).newValue }

    func subtract() { count.subtract(1, ordering: .relaxed) }
}

/// The open connections of each remote address over the whole server, shared by the loops'
/// contexts. The kernel spreads one client's connections over the loops' listeners as it
/// likes, so the cap must count them all: a share per loop turned away a browser's sixth
/// connection whenever four of them landed on one loop. Touched once per accept and once per
/// close, never per request.
final class AddressConnections: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    init() {}

    /// Counts one more for `address` when it has fewer than `cap`; false, counting nothing, when not.
    func add(_ address: String, cap: Int) -> Bool {
        counts.withLock { counts in
            let open = counts[address, default: 0]
            guard open < cap else { return false }
            counts[address] = open + 1
            return true
        }
    }

    /// Counts one more for `address`, over its cap if need be (one of its connections was just closed for it).
    func add(_ address: String) {
        counts.withLock { $0[address, default: 0] += 1 }
    }

    func remove(_ address: String) {
        counts.withLock { counts in
            guard let open = counts[address] else { return }
            counts[address] = open > 1 ? open - 1 : nil
        }
    }
}
