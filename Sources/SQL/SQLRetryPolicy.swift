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
