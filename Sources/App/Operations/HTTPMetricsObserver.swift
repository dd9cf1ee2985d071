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

/// One event loop's request metrics, counted in memory only that loop writes and added to the
/// shared series every `batch` requests and before every render of `/metrics`: two loops
/// updating the same series on every request made each wait for the other core's cache line.
/// A scrape sees every request that had completed when it began, as before.
final class LoopRequestMetrics: HTTPServerObserver, MetricsCollector {
    /// Requests counted before they are added to the shared series.
    static let batch = 256

    private struct Pending {
        var method: HTTPMethod
        var route: String
        var status: Int
        var handles: RequestSeriesCache.Handles
        var count: UInt64 = 0
        var sum: Double = 0
        /// Per bucket of `bounds`, like the histogram's own.
        var bucketCounts: [UInt64]
    }

    private struct State {
        var pending: [Pending] = []
        var uncollected = 0
    }

    private let base: HTTPMetricsObserver
    private let bounds: [Double]
    // Taken by its own loop per request and by a render now and then: never waited for in practice.
    private let state = Mutex(State())

    init(base: HTTPMetricsObserver) {
        self.base = base
        self.bounds = base.latency.bucketBounds
    }

    func connectionOpened() { base.connectionOpened() }
    func connectionClosed() { base.connectionClosed() }

    func requestCompleted(_ request: CompletedRequest) {
        let method = request.method, route = request.routePattern, status = request.status.rawValue
        let seconds = request.durationSeconds
        let bucket = bounds.firstIndex { seconds <= $0 }
        let due = state.withLock { state -> Bool? in
            var index = -1
            for i in state.pending.indices where state.pending[i].status == status && state.pending[i].route == route
                && state.pending[i].method == method {
                index = i
                break
            }
            if index < 0 {
                // Past the limit (made-up methods on unknown paths), straight to the shared series.
                guard state.pending.count < RequestSeriesCache.limit else { return nil }
                state.pending.append(Pending(method: method, route: route, status: status,
                                             handles: base.handles(method: method, route: route, status: status),
                                             bucketCounts: Array(repeating: 0, count: bounds.count)))
                index = state.pending.count - 1
            }
            state.pending[index].count += 1
            state.pending[index].sum += seconds
            if let bucket { state.pending[index].bucketCounts[bucket] += 1 }
            state.uncollected += 1
            return state.uncollected >= Self.batch
        }
        switch due {
        case nil: base.requestCompleted(request)
        case true?: collect()
        case false?: break
        }
    }

    func collect() {
        let taken = state.withLock { state -> [Pending] in
            let taken = state.pending.filter { $0.count > 0 }
            for i in state.pending.indices where state.pending[i].count > 0 {
                state.pending[i].count = 0
                state.pending[i].sum = 0
                for b in state.pending[i].bucketCounts.indices { state.pending[i].bucketCounts[b] = 0 }
            }
            state.uncollected = 0
            return taken
        }
        for entry in taken {
            entry.handles.requests.increment(by: Double(entry.count))
            entry.handles.latency.add(bucketCounts: entry.bucketCounts, count: entry.count, sum: entry.sum)
        }
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
