import Foundation
import Synchronization

/// Drops every record.
public struct NullLogSink: LogSink {
    public init() {}
    public func write(_ record: LogRecord) {}
}
