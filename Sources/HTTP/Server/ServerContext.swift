import Observability
import Synchronization

/// What every event loop of one server shares; read-only apart from the connection count.
final class ServerContext: Sendable {
    let router: Router
    let limits: HTTPLimits
    let logger: Logger
    let observer: any HTTPServerObserver
    let pool: WorkerPool
    let serverName: String
    let openConnections = Atomic<Int>(0)
    /// Logged per request only when the logger would keep info lines.
    let logsRequests: Bool

    init(router: Router, limits: HTTPLimits, logger: Logger, observer: any HTTPServerObserver, pool: WorkerPool, serverName: String) {
        self.router = router
        self.limits = limits
        self.logger = logger
        self.observer = observer
        self.pool = pool
        self.serverName = serverName
        self.logsRequests = logger.level <= .info
    }

    /// The response for an error thrown by a handler: its own status if it is an HTTPResponseError,
    /// otherwise a logged 500 that tells the client nothing of the internals.
    func response(for error: Error, request: HTTPRequest) -> HTTPResponse {
        if let error = error as? HTTPResponseError { return error.response }
        logger.error("handler failed", [("method", request.method.rawValue), ("path", request.path), ("error", String(describing: error))])
        return .problem(.internalServerError, detail: "The server could not answer this request.")
    }
}
