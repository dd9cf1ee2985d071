import Observability

/// One event loop's access log: a line per answered request, built as bytes into the loop's
/// own buffer and written in batches, at least every `flushInterval` and when the loop ends.
///
/// A line used to cost more than the request it described: a Foundation date format, a lock
/// both loops took, and a `write` each. Now the timestamp is spelled once a second, nothing
/// is shared between loops, and one `write` carries hundreds of lines. Warnings and errors
/// still go straight to the sink, one at a time.
///
/// A sink that takes records only (tests' in-memory sink) gets each line as a record, as before.
final class AccessLog {
    private let logger: Logger
    private let buffer: LogLineBuffer?
    /// Loop time when the oldest unwritten line was added; nil when nothing waits.
    private(set) var pendingSince: Double?

    /// The longest a line waits in the buffer.
    static let flushInterval = 0.1

    /// Wall-clock seconds minus loop (monotonic) seconds, measured at `syncedAt`: a line's time
    /// is the loop's clock plus this. Reading the wall clock per line cost a quarter of a
    /// microsecond on a virtual machine; once a second keeps it in step with clock adjustments.
    private var wallOffset = 0.0
    private var syncedAt = -Double.infinity

    init(logger: Logger) {
        self.logger = logger
        self.buffer = logger.level <= .info ? logger.sink.makeLineBuffer() : nil
    }

    /// Logs one answered request.
    func log(_ record: RequestRecord, status: HTTPStatus, bytes: Int, milliseconds: Int, now: Double) {
        guard let buffer else {
            logger.info("\(record.method) \(record.path) \(status.rawValue)", [
                ("method", record.method.rawValue), ("path", record.path), ("status", String(status.rawValue)),
                ("bytes", String(bytes)), ("ms", String(milliseconds)), ("remote", record.remoteAddress),
            ])
            return
        }
        if now - syncedAt >= 1 {
            let (wallSeconds, wallMilliseconds) = LogTimestamp.now()
            syncedAt = ClockSeconds.now()
            wallOffset = Double(wallSeconds) + Double(wallMilliseconds) / 1000 - syncedAt
        }
        let wall = now + wallOffset
        let seconds = Int(wall.rounded(.down))
        let ms = Int((wall - Double(seconds)) * 1000)
        buffer.accessLine(label: logger.label, seconds: seconds, milliseconds: ms, method: record.method.rawValue,
                          path: record.path, status: Int(status.rawValue), bytes: bytes, elapsed: milliseconds,
                          remote: record.remoteAddress)
        if buffer.isEmpty {
            pendingSince = nil  // the line filled a batch, which went out
        } else if pendingSince == nil {
            pendingSince = now
        }
    }

    /// When the waiting lines must be written, or nil when none wait.
    var flushDeadline: Double? { pendingSince.map { $0 + Self.flushInterval } }

    /// Writes the waiting lines if the oldest has waited `flushInterval`.
    func flushIfDue(now: Double) {
        if let since = pendingSince, now - since >= Self.flushInterval { flush() }
    }

    /// Writes every waiting line now.
    func flush() {
        buffer?.flush()
        pendingSince = nil
    }
}
