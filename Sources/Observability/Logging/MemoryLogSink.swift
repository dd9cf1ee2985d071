import Foundation
import Synchronization

/// Keeps records in memory so tests can assert on log lines.
public final class MemoryLogSink: LogSink {
    private let records = Mutex<[LogRecord]>([])

    public init() {}

    public func write(_ record: LogRecord) { records.withLock { $0.append(record) } }

    /// Every record written so far, oldest first.
    public var all: [LogRecord] { records.withLock { $0 } }
}
