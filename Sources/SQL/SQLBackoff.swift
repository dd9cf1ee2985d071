/// Waits that grow after each failure: `initial`, then doubling, never above `maximum`.
public struct SQLBackoff: Sendable, Equatable {
    /// The first wait. Default 50 ms.
    public var initial: Duration
    /// The longest wait. Default 5 s.
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(50), maximum: Duration = .seconds(5)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait after `failures` failures in a row (1 is the first), shortened by up to `jitter`
    /// (a fraction, 0–1) so that many clients that failed together do not retry together.
    public func delay(afterFailures failures: Int, jitter: Double = 0) -> Duration {
        guard failures > 0 else { return .zero }
        var wait = initial
        for _ in 1..<min(failures, 40) where wait < maximum { wait = wait * 2 }
        let capped = min(wait, maximum)
        return capped - capped * min(max(jitter, 0), 1) / 2
    }
}
