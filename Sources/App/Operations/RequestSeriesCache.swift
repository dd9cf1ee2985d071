import HTTP
import Observability
import Synchronization

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
