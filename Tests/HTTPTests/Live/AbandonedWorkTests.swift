import Foundation
import Synchronization
import XCTest
@testable import HTTP
import TestSupport

/// Work whose client has gone is not done for nobody: a queued job is dropped when its
/// connection closes, and running work that can stop is told to. A client that only shut its
/// sending side still gets its answer. Each waits for an event, never for a fixed time.
final class AbandonedWorkTests: XCTestCase {
    /// What the abandonable route saw.
    final class Seen: Sendable {
        let started = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let ran = Atomic<Int>(0)
        /// How long the render runs when nobody cancels it.
        let seconds: Double
        init(seconds: Double = 0.5) { self.seconds = seconds }
    }

    func makeServer(_ seen: Seen, limits: HTTPLimits = HTTPLimits()) throws -> LiveServer {
        let renders = WorkLane("renders")
        return try LiveServer(limits: limits, lanes: [renders: 1]) { router in
            // Runs until its ticket is cancelled, or for `seen.seconds` when it is not.
            router.addReply(.GET, "/render") { _ in
                .order(WorkOrder(lane: renders, abandonable: true) { ticket in
                    seen.ran.add(1, ordering: .relaxed)
                    let stop = DispatchSemaphore(value: 0)
                    ticket.onCancel { seen.cancelled.signal(); stop.signal() }
                    seen.started.signal()
                    _ = stop.wait(timeout: .now() + seen.seconds)
                    return HTTPResponse(contentType: "text/plain", bytes: Array("rendered".utf8))
                })
            }
        }
    }

    /// `curl -m 3` on a render: the client closes its socket; the render is cancelled at once,
    /// not run to its end for nobody.
    func testRunningWorkIsCancelledWhenItsClientCloses() throws {
        let seen = Seen(seconds: 120)  // only a cancel ends it within the test's wait
        let live = try makeServer(seen)
        defer { live.stop() }
        let c = try live.connect()
        try c.send("GET /render HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(seen.started.wait(timeout: .now() + 30), .success)
        c.close()
        XCTAssertEqual(seen.cancelled.wait(timeout: .now() + 30), .success, "the work of a closed connection was not cancelled")
    }

    /// A job waiting in the queue for a client that has gone is dropped and never runs.
    func testQueuedWorkOfAClosedConnectionNeverRuns() throws {
        let seen = Seen()
        let live = try makeServer(seen)
        defer { live.stop() }
        let first = try live.connect()
        try first.send("GET /render HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(seen.started.wait(timeout: .now() + 30), .success)
        let second = try live.connect()
        try second.send("GET /render HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(eventually(timeout: 30) { live.server.workload.first(where: { $0.lane.name == "renders" })?.queued == 1 })
        second.close()
        eventually(timeout: 30) { live.server.workload.first(where: { $0.lane.name == "renders" })?.withdrawn == 1 }
        XCTAssertEqual(live.server.workload.first { $0.lane.name == "renders" }?.queued, 0, "its queue slot is free at once")
        XCTAssertEqual(try first.readResponse().text, "rendered")
        XCTAssertEqual(seen.ran.load(ordering: .relaxed), 1, "the abandoned job never ran")
    }

    /// A client that shuts only its sending side is still there: it reads an interim 100 and
    /// then its answer, and its work is not cancelled.
    func testAHalfClosedClientStillGetsItsAnswer() throws {
        let seen = Seen()
        let live = try makeServer(seen)
        defer { live.stop() }
        let c = try live.connect()
        try c.send("GET /render HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(seen.started.wait(timeout: .now() + 30), .success)
        c.shutdownWrite()
        var response = try c.readResponse()
        if response.status == 100 { response = try c.readResponse() }
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "rendered")
        XCTAssertNotEqual(seen.cancelled.wait(timeout: .now()), .success)
        XCTAssertTrue(c.waitForClose())
    }
}
