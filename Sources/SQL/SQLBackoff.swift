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

/// How `SQLDatabase.transaction` runs a transaction again after a transient failure.
public struct SQLRetryPolicy: Sendable, Equatable {
    /// Runs in all, the first included. Default 5; 1 turns retries off.
    public var attempts: Int
    /// The wait between runs. Default 5 ms doubling to 200 ms.
    public var backoff: SQLBackoff

    public init(attempts: Int = 5, backoff: SQLBackoff = SQLBackoff(initial: .milliseconds(5), maximum: .milliseconds(200))) {
        self.attempts = max(1, attempts)
        self.backoff = backoff
    }

    /// No retries.
    public static let never = SQLRetryPolicy(attempts: 1)

    /// Whether a transaction that failed with `error` is worth running again. A lost connection
    /// is, because the server rolled the transaction back; an unknown commit outcome is not,
    /// because running it again could do it twice.
    static func shouldRetry(_ error: SQLError) -> Bool {
        switch error.kind {
        case .serializationFailure, .deadlock, .busy, .connectionLost: return true
        default: return false
        }
    }
}
