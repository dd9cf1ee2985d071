import HTTP
import Observability
import Synchronization

/// Turns the server's connection and request events into metrics.
///
/// Requests reported to it directly are added to the metrics at once; each event loop of a
/// server reports to one of its own (`forEventLoop`), which adds in batches.
struct HTTPMetricsObserver: HTTPServerObserver {
    let requests: Counter
    let latency: Histogram
    let connections: Gauge
    let registry: MetricsRegistry
    private let series = RequestSeriesCache()

    init(metrics: MetricsRegistry) {
        registry = metrics
        requests = metrics.counter("photoscroll_http_requests_total", help: "HTTP requests answered, by route and status.")
        latency = metrics.histogram("photoscroll_http_request_duration_seconds", help: "Time from a complete request head to the last byte handed to the kernel.")
        connections = metrics.gauge("photoscroll_http_open_connections", help: "Open client connections.")
    }

    func connectionOpened() { connections.add(1) }
    func connectionClosed() { connections.add(-1) }

    func requestCompleted(_ request: CompletedRequest) {
        let handles = self.handles(method: request.method, route: request.routePattern, status: request.status.rawValue)
        handles.requests.increment()
        handles.latency.observe(request.durationSeconds)
    }

    /// The series of one (method, route, status): resolved once, so a request costs a short
    /// search, not two label-key builds.
    func handles(method: HTTPMethod, route: String, status: Int) -> RequestSeriesCache.Handles {
        if let known = series.handles(method: method, route: route, status: status) { return known }
        let label = route.isEmpty ? "unmatched" : route
        let handles = (requests.series([("method", method.rawValue), ("route", label), ("status", String(status))]),
                       latency.series([("route", label)]))
        series.remember(handles, method: method, route: route, status: status)
        return handles
    }

    func forEventLoop() -> any HTTPServerObserver {
        let loop = LoopRequestMetrics(base: self)
        registry.addCollector(loop)
        return loop
    }
}

/// The metric series of each (method, route, status) seen so far; a handful in practice.
final class RequestSeriesCache: Sendable {
    struct Key: Sendable {
        var method: HTTPMethod
        var route: String
        var status: Int

        /// The status first, then the route: for a route pattern handed out by the router the
        /// comparison is usually one of the same storage, so a hit costs a few word compares.
        func matches(_ method: HTTPMethod, _ route: String, _ status: Int) -> Bool {
            self.status == status && self.route == route && self.method == method
        }
    }

    typealias Handles = (requests: CounterSeries, latency: HistogramSeries)

    /// The most keys remembered. Past it (only odd methods on unmatched paths get there) the
    /// series are resolved by the registry on every request, so a client sending made-up
    /// methods cannot make this list, searched per request, grow without end.
    static let limit = 64

    // Searched in order rather than hashed: a few equal-word compares cost less than hashing a
    // key, and the hot keys are the first ones seen.
    private let known = Mutex<[(key: Key, handles: Handles)]>([])

    /// The series remembered for this key, or nil.
    func handles(method: HTTPMethod, route: String, status: Int) -> Handles? {
        known.withLock { known -> Handles? in
            for i in known.indices where known[i].key.matches(method, route, status) { return known[i].handles }
            return nil
        }
    }

    /// Remembers the series of a key, unless it is known already or the list is full.
    func remember(_ handles: Handles, method: HTTPMethod, route: String, status: Int) {
        known.withLock { known in
            if known.count < Self.limit, !known.contains(where: { $0.key.matches(method, route, status) }) {
                known.append((Key(method: method, route: route, status: status), handles))
            }
        }
    }
}
