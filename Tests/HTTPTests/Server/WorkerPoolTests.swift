import Foundation
import Synchronization
import XCTest
@testable import HTTP

final class WorkerPoolTests: XCTestCase {
    // @unchecked Sendable: its dictionaries are guarded by `lock`.
    final class Record: @unchecked Sendable {
        let lock = NSLock()
        var order: [String] = []
        var running: [String: Int] = [:]
        var most: [String: Int] = [:]
        func begin(_ name: String, key: String = "") {
            lock.withLock {
                order.append(name)
                running[key, default: 0] += 1
                most[key] = max(most[key] ?? 0, running[key]!)
            }
        }
        func end(key: String = "") { lock.withLock { running[key, default: 0] -= 1 } }
    }

    /// One client queuing a hundred jobs delays another's single job by a turn, not by a hundred.
    func testGroupsTakeTurns() {
        let pool = WorkerPool(lanes: [.general: 1])
        defer { pool.stop() }
        let record = Record()
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        pool.submit { gate.wait() }  // holds the one thread while the queue fills
        for i in 0..<100 { pool.submit(lane: .general, group: "flood", caps: []) { record.begin("flood \(i)"); done.signal() } }
        pool.submit(lane: .general, group: "other", caps: []) { record.begin("other"); done.signal() }
        gate.signal()
        for _ in 0..<101 { XCTAssertEqual(done.wait(timeout: .now() + 5), .success) }
        let position = record.order.firstIndex(of: "other")
        XCTAssertNotNil(position)
        XCTAssertLessThanOrEqual(position ?? 100, 1, "\(record.order.prefix(5))")
    }

    /// Jobs sharing a cap key never run more than the cap at once, and the rest still all run;
    /// jobs without the key pass the capped ones waiting.
    func testCapsLimitJobsRunningAtOnceWithoutHoldingThreads() {
        let pool = WorkerPool(lanes: [.general: 4])
        defer { pool.stop() }
        let record = Record()
        let done = DispatchSemaphore(value: 0)
        let cap = [WorkCap(key: "photo 1", limit: 2)]
        for _ in 0..<12 {
            pool.submit(lane: .general, group: "a", caps: cap) {
                record.begin("capped", key: "photo 1")
                Thread.sleep(forTimeInterval: 0.05)
                record.end(key: "photo 1")
                done.signal()
            }
        }
        let free = DispatchSemaphore(value: 0)
        let started = Date()
        pool.submit(lane: .general, group: "b", caps: []) { free.signal() }
        XCTAssertEqual(free.wait(timeout: .now() + 5), .success)
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.2, "an uncapped job waited behind capped ones")
        for _ in 0..<12 { XCTAssertEqual(done.wait(timeout: .now() + 5), .success) }
        XCTAssertEqual(record.most["photo 1"], 2)
    }

    /// A lane's flood never takes another lane's threads; the load says who is behind.
    func testLanesHaveThreadsOfTheirOwnAndReportTheirLoad() throws {
        let slow = WorkLane("slow")
        let pool = WorkerPool(lanes: [.general: 1, slow: 1])
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<20 { pool.submit(lane: slow, group: "x", caps: []) { release.wait() } }
        let fast = DispatchSemaphore(value: 0)
        pool.submit(lane: .general, group: "y", caps: []) { fast.signal() }
        XCTAssertEqual(fast.wait(timeout: .now() + 2), .success)
        Thread.sleep(forTimeInterval: 0.1)
        let load = try XCTUnwrap(pool.load.first { $0.lane == slow })
        XCTAssertEqual(load.running, 1)
        XCTAssertEqual(load.queued, 19)
        XCTAssertGreaterThanOrEqual(load.oldestWaitSeconds, 0.1)
        XCTAssertEqual(pool.load.first { $0.lane == .general }?.queued, 0)
        for _ in 0..<20 { release.signal() }
    }
}
