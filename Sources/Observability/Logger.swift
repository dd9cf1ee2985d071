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

/// Writes formatted records to a file descriptor (stderr by default), one write per line.
public final class StreamLogSink: LogSink {
    private let format: LogFormat
    private let fd: Int32
    private let lock = Mutex<Void>(())

    public init(format: LogFormat, fileDescriptor: Int32 = 2) {
        self.format = format
        self.fd = fileDescriptor
    }

    public func write(_ record: LogRecord) {
        var line = format == .json ? Self.json(record) : Self.text(record)
        line.append("\n")
        lock.withLock { _ in
            var bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeMutableBytes { buffer in
                    Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                }
                if n < 0 { if errno == EINTR { continue } else { return } }
                offset += n
            }
            bytes.removeAll()
        }
    }

    /// `2026-11-29T10:31:02.123Z info  http: GET /photos 200 key=value`
    public static func text(_ record: LogRecord) -> String {
        var line = "\(timestamp(record.date)) \(record.level.description.padding(toLength: 7, withPad: " ", startingAt: 0)) \(record.label): \(record.message)"
        for (key, value) in record.metadata {
            line += " \(key)=\(value.contains(" ") ? "\"\(value)\"" : value)"
        }
        return line
    }

    /// `{"time":"…","level":"info","logger":"http","message":"…","key":"value"}`
    public static func json(_ record: LogRecord) -> String {
        var fields: [(String, String)] = [
            ("time", timestamp(record.date)),
            ("level", record.level.description),
            ("logger", record.label),
            ("message", record.message),
        ]
        fields.append(contentsOf: record.metadata)
        return "{" + fields.map { "\(Observability.jsonString($0.0)):\(Observability.jsonString($0.1))" }.joined(separator: ",") + "}"
    }

    static func timestamp(_ date: Date) -> String {
        // UTC with its "Z": a timestamp without a zone is ambiguous to log collectors.
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true)
            .timeSeparator(.colon).timeZone(separator: .omitted))
    }

}
