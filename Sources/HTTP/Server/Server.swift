import Observability

/// The HTTP/1.1 server: epoll event loops, one per core, sharing the port with SO_REUSEPORT,
/// and a worker pool for slow handlers.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    let router: Router
    let logger: Logger
    let observer: any HTTPServerObserver

    /// The port actually bound; valid after `start()`.
    public private(set) var port: Int = 0

    public init(configuration: HTTPServerConfiguration, router: Router, logger: Logger,
                observer: any HTTPServerObserver = NullServerObserver()) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.observer = observer
    }

    /// Binds and starts the loops; returns once the server accepts connections.
    public func start() throws {
        fatalError("HTTPServer.start is not built yet")
    }

    /// Blocks until `shutdown` has finished.
    public func wait() {}

    /// Stops accepting, lets in-flight requests finish for up to `graceSeconds`, then closes everything.
    public func shutdown(graceSeconds: Double) {}
}
