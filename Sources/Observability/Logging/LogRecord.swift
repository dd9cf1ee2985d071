import Foundation
import Synchronization

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
