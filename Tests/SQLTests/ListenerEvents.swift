import Dispatch
import Foundation
import SQLTesting
import Synchronization
import XCTest
@testable import SQL

/// Collects a listener's events so a test can wait for each in turn.
final class ListenerEvents: Sendable {
    private let events = Mutex<[SQLListenerEvent]>([])
    private let arrived = DispatchSemaphore(value: 0)
    private let taken = Mutex(0)

    var handler: @Sendable (SQLListenerEvent) -> Void {
        { [self] event in
            events.withLock { $0.append(event) }
            arrived.signal()
        }
    }

    /// The next event, or nil when none comes within `timeout`.
    func next(timeout: Double = 30) -> SQLListenerEvent? {
        guard arrived.wait(timeout: .now() + timeout) == .success else { return nil }
        let index = taken.withLock { index -> Int in
            defer { index += 1 }
            return index
        }
        return events.withLock { $0[index] }
    }

    /// The next notification's payload, skipping nothing: any other event fails the test.
    func nextPayload(timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) -> String? {
        switch next(timeout: timeout) {
        case .notification(let n)?: return n.payload
        case let other: XCTFail("expected a notification, got \(String(describing: other))", file: file, line: line); return nil
        }
    }
}
