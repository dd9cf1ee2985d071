import HTTP
import Observability

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
