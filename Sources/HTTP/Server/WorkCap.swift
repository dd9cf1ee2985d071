import Foundation
import Observability
import Synchronization

/// At most `limit` jobs of a lane sharing `key` run at once (renders of one photo, or of one
/// client); further ones wait in the queue without holding a thread.
public struct WorkCap: Hashable, Sendable {
    public var key: String
    public var limit: Int
    public init(key: String, limit: Int) {
        self.key = key
        self.limit = limit
    }
}
