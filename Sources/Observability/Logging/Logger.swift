import Foundation
import Synchronization

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
