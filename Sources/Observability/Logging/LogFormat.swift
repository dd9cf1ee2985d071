import Foundation
import Synchronization

/// How a stream sink formats records.
public enum LogFormat: String, Sendable, CaseIterable {
    /// One human-readable line per record.
    case text
    /// One JSON object per line, for log collectors.
    case json
}
