import HTTP
import Observability

/// Turns the server's connection and request events into metrics.
struct HTTPMetricsObserver: HTTPServerObserver {
    let requests: Counter
    let latency: Histogram
    let connections: Gauge

    init(metrics: MetricsRegistry) {
        requests = metrics.counter("photoscroll_http_requests_total", help: "HTTP requests answered, by route and status.")
        latency = metrics.histogram("photoscroll_http_request_duration_seconds", help: "Time from a complete request head to the last byte handed to the kernel.")
        connections = metrics.gauge("photoscroll_http_open_connections", help: "Open client connections.")
    }

    func connectionOpened() { connections.add(1) }
    func connectionClosed() { connections.add(-1) }

    func requestCompleted(_ request: CompletedRequest) {
        let route = request.routePattern.isEmpty ? "unmatched" : request.routePattern
        requests.increment(by: 1, [("method", request.method.rawValue), ("route", route), ("status", String(request.status.rawValue))])
        latency.observe(request.durationSeconds, [("route", route)])
    }
}
