import Foundation
import SQL
import SQLTesting
import XCTest
@testable import Comments
import TestSupport

/// Events a store's `onChange` handler was told, for waiting on.
// @unchecked Sendable: `list` is guarded by `condition`, which `wait` waits on.
final class EventLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var list: [CommentEvent] = []

    func append(_ event: CommentEvent) {
        condition.withLock {
            list.append(event)
            condition.broadcast()
        }
    }

    var events: [CommentEvent] { condition.withLock { list } }

    /// Waits until `count` events have arrived; false on timeout.
    func wait(count: Int, timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while list.count < count {
            if !condition.wait(until: deadline) { return list.count >= count }
        }
        return true
    }
}
