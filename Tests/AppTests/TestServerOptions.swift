@testable import App
@testable import HTTP

/// How a test's server is started (see `TestClient`); the defaults suit a loaded two-core machine.
struct TestServerOptions: Sendable {
    /// What a live server listens with; its port is always replaced by 0 (any free one).
    var server = HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoops: 1, workerThreads: 2,
                                         lanes: WorkLanes.threads(Configuration(), cores: 2))
    /// Sees a live server's connections and requests (metrics).
    var observer: any HTTPServerObserver = NullServerObserver()
    /// The `Host` a request names when the test gives none: a name the application serves. Nil:
    /// `127.0.0.1` in-process, the address it dials on a live server.
    var host: String?
    /// How long a live request may take before it fails the test. Generous for a loaded machine.
    var requestTimeout = 30.0
}
