import Foundation
import Synchronization
import XCTest
@testable import Library

final class BackgroundThreadTests: XCTestCase {
    /// The calling thread's nice value (`who` 0 names the calling thread on Linux).
    private static func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    /// Ingest and watcher threads run at nice 10 so request threads go first; the lowering is the
    /// calling thread's alone, never the whole process's.
    func testLoweringThePriorityTouchesOnlyTheCallingThread() {
        let before = Self.niceness()
        let seen = Mutex<Int32?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            BackgroundThread.lowerPriority()
            seen.withLock { $0 = Self.niceness() }
            done.signal()
        }
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        // Nice 10 is absolute; a process started nicer than that keeps its own value there.
        XCTAssertEqual(seen.withLock { $0 }, max(10, before), "the background thread runs at nice 10")
        XCTAssertEqual(Self.niceness(), before, "the calling thread of the test keeps its priority")
    }
}
