import HTTP
import Observability
import Synchronization

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
        /// The entry the last request counted in: a loop serving tiles counts one series over and over.
        var last = 0

        /// The index of the entry for the series, or nil.
        func index(method: HTTPMethod, route: String, status: Int) -> Int? {
            if last < pending.count, pending[last].status == status, pending[last].route == route, pending[last].method == method {
                return last
            }
            for i in pending.indices where pending[i].status == status && pending[i].route == route && pending[i].method == method {
                return i
            }
            return nil
        }
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
            let index: Int
            if let known = state.index(method: method, route: route, status: status) {
                index = known
            } else {
                // Past the limit (made-up methods on unknown paths), straight to the shared series.
                guard state.pending.count < RequestSeriesCache.limit else { return nil }
                state.pending.append(Pending(method: method, route: route, status: status,
                                             handles: base.handles(method: method, route: route, status: status),
                                             bucketCounts: Array(repeating: 0, count: bounds.count)))
                index = state.pending.count - 1
            }
            state.last = index
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
