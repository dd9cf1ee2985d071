import Observability
import Synchronization

/// A token bucket per client: each may post `perMinute` comments in a burst, then one every
/// `60 / perMinute` seconds. Zero turns the limit off.
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

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    let perMinute: Int
    private let capacity: Double
    private let refillPerSecond: Double
    private let now: @Sendable () -> Double
    private let buckets = Mutex<[String: Bucket]>([:])
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
            var bucket = buckets[client] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now - bucket.updated) * refillPerSecond)
            bucket.updated = now
            defer {
                buckets[client] = bucket
                if buckets.count > pruneThreshold { prune(&buckets, now: now) }
            }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return .allowed
            }
            let wait = (1 - bucket.tokens) / refillPerSecond
            // The epsilon keeps float noise (1.9999…/2.0000…1) from adding a whole second.
            return .limited(retryAfterSeconds: max(1, Int((wait - 1e-6).rounded(.up))))
        }
    }

    /// Clients currently tracked.
    var trackedClients: Int { buckets.withLock { $0.count } }

    private func prune(_ buckets: inout [String: Bucket], now: Double) {
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.updated) * refillPerSecond < capacity }
    }

    /// `ContinuousClock` in seconds: immune to the wall clock being set back.
    static func monotonicSeconds() -> Double { ClockSeconds.now() }
}
