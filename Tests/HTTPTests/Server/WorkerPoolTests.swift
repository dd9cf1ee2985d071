import Foundation
import Synchronization
import TestSupport
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
        for _ in 0..<101 { XCTAssertEqual(done.wait(timeout: .now() + 30), .success) }
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
        let hold = DispatchSemaphore(value: 0)
        for _ in 0..<12 {
            pool.submit(lane: .general, group: "a", caps: cap) {
                record.begin("capped", key: "photo 1")
                hold.wait()
                record.end(key: "photo 1")
                done.signal()
            }
        }
        // The capped jobs hold on until released: the free one can only run by passing them.
        let free = DispatchSemaphore(value: 0)
        pool.submit(lane: .general, group: "b", caps: []) { free.signal() }
        XCTAssertEqual(free.wait(timeout: .now() + 30), .success, "an uncapped job waited behind capped ones")
        // Two capped jobs run at once before any is let go: on a loaded machine the second may be
        // on its thread but not yet begun when the free one has run, and let go then, the first
        // would end before the second began.
        XCTAssertTrue(eventually { record.lock.withLock { record.running["photo 1"] == 2 } }, "two capped jobs run at once")
        for _ in 0..<12 { hold.signal() }
        for _ in 0..<12 { XCTAssertEqual(done.wait(timeout: .now() + 30), .success) }
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
        XCTAssertEqual(fast.wait(timeout: .now() + 30), .success)
        waitUntil { pool.load.first { $0.lane == slow }?.running == 1 }
        waitUntil { (pool.load.first { $0.lane == slow }?.oldestWaitSeconds ?? 0) >= 0.1 }
        let load = try XCTUnwrap(pool.load.first { $0.lane == slow })
        XCTAssertEqual(load.running, 1)
        XCTAssertEqual(load.queued, 19)
        XCTAssertGreaterThanOrEqual(load.oldestWaitSeconds, 0.1)
        XCTAssertEqual(pool.load.first { $0.lane == .general }?.queued, 0)
        for _ in 0..<20 { release.signal() }
    }

    /// A client with `maxQueuedPerClient` jobs waiting gets the next refused (429), another client
    /// does not; a full lane refuses everyone (503); both say when to come back.
    func testABudgetRefusesJobsBeyondItsQueues() {
        let lane = WorkLane("renders")
        let pool = WorkerPool(lanes: [lane: 1], budgets: [lane: LaneBudget(maxQueuedPerClient: 2, maxQueued: 3)])
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        func submit(_ group: String) -> WorkRefusal? {
            pool.submit(lane: lane, group: group, caps: [], cost: 0, ticket: nil) { release.wait() }
        }
        XCTAssertNil(submit("a"))  // runs
        waitUntil { pool.load.first { $0.lane == lane }?.running == 1 }
        XCTAssertNil(submit("a"))
        XCTAssertNil(submit("a"))
        XCTAssertEqual(submit("a")?.status, .tooManyRequests, "two waiting already")
        XCTAssertNil(submit("b"))
        XCTAssertEqual(submit("c")?.status, .serviceUnavailable, "three waiting in the lane")
        XCTAssertGreaterThanOrEqual(submit("c")?.retryAfterSeconds ?? 0, 1)
        let load = pool.load.first { $0.lane == lane }
        XCTAssertEqual(load?.refusedForClient, 1)
        XCTAssertEqual(load?.refusedForLane, 2)
        for _ in 0..<4 { release.signal() }
    }

    /// Jobs start only while their cost fits the budget beside what runs; one larger than the
    /// budget runs alone; the turn waits for a large job rather than passing it over.
    func testCostInFlightStaysWithinTheBudget() {
        let lane = WorkLane("renders")
        let pool = WorkerPool(lanes: [lane: 4], budgets: [lane: LaneBudget(maxCostInFlight: 100)])
        defer { pool.stop() }
        let record = Record()
        let done = DispatchSemaphore(value: 0)
        // @unchecked Sendable: guarded by its lock.
        final class Cost: @unchecked Sendable {
            let lock = NSLock()
            var now = 0, most = 0
            func add(_ n: Int) { lock.withLock { now += n; most = max(most, now) } }
        }
        let cost = Cost()
        let sizes = [60, 60, 30, 250, 40, 40, 10]
        for (i, size) in sizes.enumerated() {
            _ = pool.submit(lane: lane, group: "g\(i % 3)", caps: [], cost: size, ticket: nil) {
                record.begin("\(size)")
                cost.add(size)
                Thread.sleep(forTimeInterval: 0.03)
                cost.add(-size)
                done.signal()
            }
        }
        for _ in sizes { XCTAssertEqual(done.wait(timeout: .now() + 30), .success) }
        XCTAssertEqual(record.order.count, sizes.count, "every job ran, the one over the budget too")
        XCTAssertLessThanOrEqual(cost.lock.withLock { cost.most }, 250, "the large job ran alone")
        // A job's cost is given back once its body has returned, just after the last `done`.
        waitUntil { pool.load.first(where: { $0.lane == lane })?.costInFlight == 0 }
    }

    /// A queued job whose ticket is cancelled (its client went away) is dropped at once and
    /// never runs; the job behind it moves up.
    func testACancelledTicketWithdrawsAQueuedJob() {
        let lane = WorkLane("renders")
        let pool = WorkerPool(lanes: [lane: 1])
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        let ran = Record()
        let done = DispatchSemaphore(value: 0)
        _ = pool.submit(lane: lane, group: "a", caps: [], cost: 0, ticket: nil) { release.wait() }
        waitUntil { pool.load.first { $0.lane == lane }?.running == 1 }
        let ticket = WorkTicket()
        _ = pool.submit(lane: lane, group: "gone", caps: [], cost: 0, ticket: ticket) { ran.begin("gone") }
        _ = pool.submit(lane: lane, group: "b", caps: [], cost: 0, ticket: WorkTicket()) { ran.begin("b"); done.signal() }
        XCTAssertEqual(pool.load.first { $0.lane == lane }?.queued, 2)
        ticket.cancel()
        XCTAssertEqual(pool.load.first { $0.lane == lane }?.queued, 1, "its slot is freed at once")
        XCTAssertEqual(pool.load.first { $0.lane == lane }?.withdrawn, 1)
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(ran.order, ["b"])
    }

    /// A lane that starts jobs keeps its stall at zero however long one client's queue is; one
    /// whose every thread is stuck shows the stall growing.
    func testStalledSecondsGrowOnlyWhileNothingStarts() {
        let lane = WorkLane("catalog")
        let pool = WorkerPool(lanes: [lane: 1])
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        _ = pool.submit(lane: lane, group: "a", caps: [], cost: 0, ticket: nil) { release.wait() }
        waitUntil { pool.load.first { $0.lane == lane }?.running == 1 }
        _ = pool.submit(lane: lane, group: "b", caps: [], cost: 0, ticket: nil) {}
        waitUntil { (pool.load.first { $0.lane == lane }?.stalledSeconds ?? 0) >= 0.05 }
        release.signal()
        waitUntil { pool.load.first { $0.lane == lane }?.queued == 0 }
        XCTAssertEqual(pool.load.first { $0.lane == lane }?.stalledSeconds, 0)
    }

    /// A job that waited past `maxWaitSeconds` is answered (503) instead of started.
    func testAJobWaitingPastItsLimitIsRefusedNotStarted() {
        let lane = WorkLane("renders")
        // Long enough that the first job's own start, on a loaded machine, is never past it.
        let pool = WorkerPool(lanes: [lane: 1], budgets: [lane: LaneBudget(maxWaitSeconds: 1)])
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        let ran = Record()
        _ = pool.submit(lane: lane, group: "a", caps: [], cost: 0, ticket: nil, expired: { _ in
            XCTFail("the job that holds the thread waited past the limit before it started")
        }) { release.wait() }
        waitUntil { pool.load.first { $0.lane == lane }?.running == 1 }
        _ = pool.submit(lane: lane, group: "late", caps: [], cost: 0, ticket: nil, expired: { refusal in
            XCTAssertEqual(refusal.status, .serviceUnavailable)
            answered.signal()
        }) { ran.begin("late") }
        waitUntil { (pool.load.first { $0.lane == lane }?.oldestWaitSeconds ?? 0) > 1.05 }
        release.signal()
        XCTAssertEqual(answered.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(ran.order, [], "its work never started")
        XCTAssertEqual(pool.load.first { $0.lane == lane }?.expired, 1)
    }

    func waitUntil(_ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        if !eventually(timeout: 30, condition) { XCTFail("timed out", file: file, line: line) }
    }
}
