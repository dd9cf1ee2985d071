import Foundation
import Synchronization

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
