import HTTP
import Observability
import Synchronization

/// Slows down guessing: counts failed attempts (a wrong admin token, password or share
/// password) per key, and refuses further attempts under a key that has failed too often,
/// with how long to wait.
///
/// Each key has a leaky bucket: a failure adds one, and the level drains at
/// `failures / seconds` per second. An attempt is allowed while the level is below
/// `failures`, so `failures` wrong guesses come at once and then one more each
/// `seconds / failures` (5 a minute by default: one every 12 s). Refused attempts are not
/// counted: hammering while refused changes nothing, and the rightful user's wait stays what
/// the answer said. Keys are whatever the caller names: a client's (`keys(forClient:)`, the
/// address, or its /64 for IPv6), an account's (`"user:ana"`), a share link's.
///
/// Kept in this process's memory: replicas each keep their own. At most `maxKeys` keys are
/// tracked; past that, drained buckets are dropped first, then the lowest.
package final class FailureThrottle: Sendable {
    /// How many failures, over how long.
    package struct Policy: Sendable, Equatable {
        /// Failures allowed in a burst, and per `seconds` after it. Default 5.
        package var failures: Int
        /// Default 60.
        package var seconds: Double
        /// Most keys tracked at once. Default 100 000.
        package var maxKeys: Int

        package init(failures: Int = 5, seconds: Double = 60, maxKeys: Int = 100_000) {
            precondition(failures > 0 && seconds > 0 && maxKeys > 0)
            self.failures = failures
            self.seconds = seconds
            self.maxKeys = maxKeys
        }
    }

    /// Whether an attempt may go ahead.
    package enum Decision: Equatable, Sendable {
        case allowed
        /// Refused: try again after this many whole seconds (the `Retry-After` value).
        case limited(retryAfterSeconds: Int)
    }

    package let policy: Policy
    private let drainPerSecond: Double
    private let now: @Sendable () -> Double
    private let buckets = Mutex<[String: LeakyBucket]>([:])

    /// `now` is a monotonic clock in seconds (`ClockSeconds.now` by default); tests pass one they move.
    package init(policy: Policy = Policy(), now: @escaping @Sendable () -> Double = { ClockSeconds.now() }) {
        self.policy = policy
        self.drainPerSecond = Double(policy.failures) / policy.seconds
        self.now = now
    }

    /// The keys a client's attempts are counted under: its address, or for IPv6 its /64.
    package static func keys(forClient address: String) -> [String] {
        ["client:" + ClientKey.of(address)]
    }

    /// Whether an attempt under `keys` may go ahead now: refused while any of them has failed
    /// too often. Ask before checking the secret, so a refused guess is never compared.
    package func check(_ keys: [String]) -> Decision {
        let now = self.now()
        return buckets.withLock { buckets in
            var wait = 0.0
            for key in keys {
                guard let bucket = buckets[key] else { continue }
                let level = drained(bucket, now: now)
                let over = level - Double(policy.failures - 1)
                if over > 1e-9 { wait = max(wait, over / drainPerSecond) }
            }
            return wait > 0 ? .limited(retryAfterSeconds: LeakyBucket.retryAfterSeconds(waiting: wait)) : .allowed
        }
    }

    /// Counts a failed attempt under every key; returns whether the next attempt is allowed.
    @discardableResult
    package func fail(_ keys: [String]) -> Decision {
        let now = self.now()
        buckets.withLock { buckets in
            for key in keys {
                var bucket = buckets[key] ?? LeakyBucket(at: now)
                bucket.count(at: now, drainingPerSecond: drainPerSecond)
                buckets[key] = bucket
            }
            if buckets.count > policy.maxKeys { prune(&buckets, now: now, keeping: keys) }
        }
        return check(keys)
    }

    /// Forgets the failures under `keys` after a success. Pass only what a success clears (the
    /// account signed in to), never a client's keys: a client that knows one secret must not
    /// reset its count of guesses at another.
    package func succeed(_ keys: [String]) {
        buckets.withLock { buckets in for key in keys { buckets[key] = nil } }
    }

    /// Keys tracked now.
    package var trackedKeys: Int { buckets.withLock { $0.count } }

    private func drained(_ bucket: LeakyBucket, now: Double) -> Double {
        bucket.level(at: now, drainingPerSecond: drainPerSecond)
    }

    /// Drops drained buckets (they behave exactly like absent ones), then, if that is not
    /// enough, the lowest, down to nine tenths of the cap so the next prune is far off. The keys
    /// failed just now are never dropped: among equals the order is arbitrary, and a key must not
    /// lose the failure it is being counted for.
    private func prune(_ buckets: inout [String: LeakyBucket], now: Double, keeping current: [String]) {
        buckets = buckets.filter { drained($0.value, now: now) > 0 }
        let keep = policy.maxKeys * 9 / 10
        guard buckets.count > keep else { return }
        let lowest = buckets.filter { !current.contains($0.key) }
            .sorted { drained($0.value, now: now) < drained($1.value, now: now) }.prefix(buckets.count - keep)
        for (key, _) in lowest { buckets[key] = nil }
    }
}
