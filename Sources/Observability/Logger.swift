import Foundation
import Synchronization

/// How severe a log line is; lines below a logger's level are dropped.
public enum LogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    case debug, info, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// One log line before it is formatted.
public struct LogRecord: Sendable {
    public var date: Date
    public var level: LogLevel
    public var label: String
    public var message: String
    public var metadata: [(String, String)]

    public init(date: Date = Date(), level: LogLevel, label: String, message: String, metadata: [(String, String)] = []) {
        self.date = date
        self.level = level
        self.label = label
        self.message = message
        self.metadata = metadata
    }
}

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

/// A logger handed down to every component; libraries never create a global one.
public struct Logger: Sendable {
    public var label: String
    public var level: LogLevel
    public let sink: any LogSink

    public init(label: String, level: LogLevel = .info, sink: any LogSink) {
        self.label = label
        self.level = level
        self.sink = sink
    }

    /// A logger that drops everything, for tests and tools that must stay quiet.
    public static let disabled = Logger(label: "disabled", level: .error, sink: NullLogSink())

    /// The same sink under another label.
    public func labeled(_ label: String) -> Logger {
        Logger(label: label, level: level, sink: sink)
    }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) {
        guard level >= self.level else { return }
        sink.write(LogRecord(level: level, label: label, message: message(), metadata: metadata))
    }

    public func debug(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.debug, message(), metadata) }
    public func info(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.info, message(), metadata) }
    public func warning(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.warning, message(), metadata) }
    public func error(_ message: @autoclosure () -> String, _ metadata: [(String, String)] = []) { log(.error, message(), metadata) }
}

/// Drops every record.
public struct NullLogSink: LogSink {
    public init() {}
    public func write(_ record: LogRecord) {}
}

/// Keeps records in memory so tests can assert on log lines.
public final class MemoryLogSink: LogSink {
    private let records = Mutex<[LogRecord]>([])

    public init() {}

    public func write(_ record: LogRecord) { records.withLock { $0.append(record) } }

    /// Every record written so far, oldest first.
    public var all: [LogRecord] { records.withLock { $0 } }
}

/// How a stream sink formats records.
public enum LogFormat: String, Sendable, CaseIterable {
    /// One human-readable line per record.
    case text
    /// One JSON object per line, for log collectors.
    case json
}

/// Writes formatted records to a file descriptor (stderr by default), one write per line, at once.
/// Threads that log often take a `LogLineBuffer` of their own for the same descriptor instead.
public final class StreamLogSink: LogSink {
    private let format: LogFormat
    private let fd: Int32
    /// One line at a time through one buffer; only records written one by one take this lock.
    private let line: Mutex<LogLineBuffer>

    public init(format: LogFormat, fileDescriptor: Int32 = 2) {
        self.format = format
        self.fd = fileDescriptor
        self.line = Mutex(LogLineBuffer(format: format, fileDescriptor: fileDescriptor))
    }

    public func write(_ record: LogRecord) {
        line.withLock { buffer in
            buffer.append(record)
            buffer.flush()
        }
    }

    public func makeLineBuffer() -> LogLineBuffer? {
        LogLineBuffer(format: format, fileDescriptor: fd)
    }

    /// `2026-11-29T10:31:02.123Z info    http: GET /photos 200 key=value`, without the line end.
    public static func text(_ record: LogRecord) -> String { spelled(record, .text) }

    /// `{"time":"…","level":"info","logger":"http","message":"…","key":"value"}`, without the line end.
    public static func json(_ record: LogRecord) -> String { spelled(record, .json) }

    private static func spelled(_ record: LogRecord, _ format: LogFormat) -> String {
        let buffer = LogLineBuffer(format: format, fileDescriptor: nil)
        buffer.append(record)
        return String(buffer.text.dropLast())
    }
}
