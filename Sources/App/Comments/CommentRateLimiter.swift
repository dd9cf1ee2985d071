import Access
import Observability
import Synchronization

/// A token bucket per client: each may post `perMinute` comments in a burst, then one every
/// `60 / perMinute` seconds. Zero turns the limit off. Kept as a `LeakyBucket` of the comments
/// posted: the tokens left are the burst less its level.
///
/// Clients are keyed by `ClientAddress`: the connection's address, or behind a configured
/// trusted proxy, the address that proxy forwarded.
final class CommentRateLimiter: Sendable {
    /// The outcome of asking to post.
    enum Decision: Equatable {
        case allowed
        /// Try again after this many whole seconds (the `Retry-After` value).
        case limited(retryAfterSeconds: Int)
    }

    let perMinute: Int
    private let capacity: Double
    private let refillPerSecond: Double
    private let now: @Sendable () -> Double
    private let buckets = Mutex<[String: LeakyBucket]>([:])
    /// Above this many tracked clients, full buckets (which behave exactly like absent ones) are dropped.
    private let pruneThreshold: Int

    /// `now` is a monotonic clock in seconds; tests pass one they move by hand.
    init(perMinute: Int, pruneThreshold: Int = 10_000, now: @escaping @Sendable () -> Double = { CommentRateLimiter.monotonicSeconds() }) {
        self.perMinute = perMinute
        self.capacity = Double(perMinute)
        self.refillPerSecond = Double(perMinute) / 60
        self.pruneThreshold = pruneThreshold
        self.now = now
    }

    /// Takes one token for `client` if it has one.
    func take(for client: String) -> Decision {
        guard perMinute > 0 else { return .allowed }
        let now = self.now()
        return buckets.withLock { buckets in
            var bucket = buckets[client] ?? LeakyBucket(at: now)
            defer {
                buckets[client] = bucket
                if buckets.count > pruneThreshold { prune(&buckets, now: now) }
            }
            let tokens = capacity - bucket.level(at: now, drainingPerSecond: refillPerSecond)
            if tokens >= 1 {
                bucket.count(at: now, drainingPerSecond: refillPerSecond)
                return .allowed
            }
            let wait = (1 - tokens) / refillPerSecond
            return .limited(retryAfterSeconds: LeakyBucket.retryAfterSeconds(waiting: wait))
        }
    }

    /// Clients currently tracked.
    var trackedClients: Int { buckets.withLock { $0.count } }

    private func prune(_ buckets: inout [String: LeakyBucket], now: Double) {
        buckets = buckets.filter { $0.value.level(at: now, drainingPerSecond: refillPerSecond) > 0 }
    }

    /// `ContinuousClock` in seconds: immune to the wall clock being set back.
    static func monotonicSeconds() -> Double { ClockSeconds.now() }
}
