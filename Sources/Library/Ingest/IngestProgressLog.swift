/// Counts for the ingest's progress line: photos examined and built since the ingest began.
struct IngestProgressLog: Sendable {
    private var startedAt: ContinuousClock.Instant?
    private var lastLine = ContinuousClock.now
    private var done = 0
    private var examinedCount = 0
    /// Seconds between two progress lines.
    static let interval: Duration = .seconds(10)

    mutating func queued(_ count: Int) {
        if startedAt == nil && count > 0 {
            startedAt = .now
            lastLine = .now
            done = 0
            examinedCount = 0
        }
    }

    mutating func examined() { examinedCount += 1 }

    mutating func built() { done += 1 }

    /// A line is due every `interval` seconds, and once when nothing is left.
    mutating func line(remaining: Int) -> (rate: Double, Void)? {
        guard let startedAt else { return nil }
        let now = ContinuousClock.now
        let finished = remaining == 0
        guard finished || now >= lastLine + Self.interval else { return nil }
        lastLine = now
        let seconds = max(0.001, (now - startedAt).inSeconds)
        let rate = Double(max(done, examinedCount)) / seconds
        if finished { self.startedAt = nil }
        return (rate, ())
    }
}
