import HTTP
import POSIX
import Synchronization

/// The HTTP server: binds and prints `listening on http://HOST:PORT` as the first line on stdout
/// when it starts; when it stops, turns the probes to 503, stops accepting, lets in-flight
/// requests finish until the deadline, and joins its loop and worker threads. Every answered
/// request's access-log line is written before the loops end.
final class HTTPService: Service {
    let name = "http"
    private let factory = Mutex<(@Sendable () -> HTTPServer)?>(nil)
    private let draining: Draining
    private let host: String
    private let current = Mutex<HTTPServer?>(nil)

    init(host: String, draining: Draining) {
        self.host = host
        self.draining = draining
    }

    /// How `start` makes the server (its router needs the whole application).
    func makeServer(_ make: @escaping @Sendable () -> HTTPServer) { factory.withLock { $0 = make } }

    /// The running server, or nil before start.
    var server: HTTPServer? { current.withLock { $0 } }

    /// `http://127.0.0.1:8080`: where the server answers, loopback when it listens everywhere.
    var url: String? {
        guard let server else { return nil }
        let shown = host == "0.0.0.0" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(server.port)"
    }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws {
        guard let make = factory.withLock({ $0 }) else { preconditionFailure("HTTPService started before makeServer") }
        let server = make()
        try server.start()
        current.withLock { $0 = server }
        print("listening on \(url!)")
        System.flushOutputStreams()
    }

    func shutDown(deadline: ContinuousClock.Instant) {
        draining.begin()
        server?.shutdown(deadline: deadline)
    }
}
