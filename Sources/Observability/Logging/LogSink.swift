import Foundation
import Synchronization

/// Where formatted log records go.
public protocol LogSink: Sendable {
    func write(_ record: LogRecord)
    /// A buffer one thread may fill with lines of its own and write in batches (an event
    /// loop's access log), or nil when this sink takes records only. By default nil.
    func makeLineBuffer() -> LogLineBuffer?
}

extension LogSink {
    public func makeLineBuffer() -> LogLineBuffer? { nil }
}
