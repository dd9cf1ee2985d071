import Observability
import Synchronization

/// Builds that failed for a reason not the file's own, each waiting out its backoff: 5 s, 10 s,
/// 20 s … up to the configured most. Kept in memory only: a restart tries every one again at once.
final class BuildRetries: Sendable {
    private struct Waiting {
        var attempts: Int
        var notBefore: ContinuousClock.Instant
    }
    private let waiting = Mutex<[String: Waiting]>([:])

    /// Whether a build of `version` may start now.
    func isDue(_ version: String) -> Bool {
        waiting.withLock { state in
            guard let entry = state[version] else { return true }
            return ContinuousClock.now >= entry.notBefore
        }
    }

    /// Records one more failure of `version`; returns the seconds to wait and the attempt number.
    func failed(_ version: String, baseSeconds: Double, maxSeconds: Double) -> (seconds: Double, attempt: Int) {
        waiting.withLock { state in
            let attempts = (state[version]?.attempts ?? 0) + 1
            let seconds = min(maxSeconds, baseSeconds * Double(1 << min(attempts - 1, 30)))
            state[version] = Waiting(attempts: attempts, notBefore: .now + .seconds(double: seconds))
            return (seconds, attempts)
        }
    }

    /// Forgets `version` after a build of it succeeded.
    func succeeded(_ version: String) { _ = waiting.withLock { $0.removeValue(forKey: version) } }

    /// Failures so far of `version`.
    func attempts(_ version: String) -> Int { waiting.withLock { $0[version]?.attempts ?? 0 } }
}
