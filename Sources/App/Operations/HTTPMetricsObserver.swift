import HTTP
import Observability
import Synchronization

/// Turns the server's connection and request events into metrics.
struct HTTPMetricsObserver: HTTPServerObserver {
    let requests: Counter
    let latency: Histogram
    let connections: Gauge
    private let series = RequestSeriesCache()

    init(metrics: MetricsRegistry) {
        requests = metrics.counter("photoscroll_http_requests_total", help: "HTTP requests answered, by route and status.")
        latency = metrics.histogram("photoscroll_http_request_duration_seconds", help: "Time from a complete request head to the last byte handed to the kernel.")
        connections = metrics.gauge("photoscroll_http_open_connections", help: "Open client connections.")
    }

    func connectionOpened() { connections.add(1) }
    func connectionClosed() { connections.add(-1) }

    func requestCompleted(_ request: CompletedRequest) {
        // Every request lands here: the series are resolved once per (method, route, status),
        // so a request costs a small-key lookup and two counter updates, not two label-key builds.
        let key = RequestSeriesCache.Key(method: request.method, route: request.routePattern, status: request.status.rawValue)
        let handles = series.handles(for: key) {
            let route = request.routePattern.isEmpty ? "unmatched" : request.routePattern
            return (requests.series([("method", request.method.rawValue), ("route", route), ("status", String(request.status.rawValue))]),
                    latency.series([("route", route)]))
        }
        handles.requests.increment()
        handles.latency.observe(request.durationSeconds)
    }
}

/// The metric series of each (method, route, status) seen so far; a handful in practice.
final class RequestSeriesCache: Sendable {
    struct Key: Hashable, Sendable {
        var method: HTTPMethod
        var route: String
        var status: Int

        // A few cheap numbers instead of hashing both strings per request: equal keys still hash
        // alike, and the rare collision is settled by ==, which for a route pattern handed out
        // by the router is usually a comparison of the same storage.
        func hash(into hasher: inout Hasher) {
            hasher.combine(status)
            hasher.combine(route.utf8.count)
            hasher.combine(method.rawValue.utf8.count)
            hasher.combine(route.utf8.last)
        }
    }

    typealias Handles = (requests: CounterSeries, latency: HistogramSeries)

    private let known = Mutex<[Key: Handles]>([:])

    func handles(for key: Key, resolve: () -> Handles) -> Handles {
        if let found = known.withLock({ $0[key] }) { return found }
        let resolved = resolve()
        known.withLock { $0[key] = resolved }
        return resolved
    }
}
