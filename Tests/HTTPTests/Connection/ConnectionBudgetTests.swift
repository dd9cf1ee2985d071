import XCTest
@testable import HTTP

/// What one connection may hold of the server: requests in flight, queued answer bytes, and
/// how slowly it may take them. Fed by hand, without sockets.
extension ConnectionMachineTests {
    func defaultMachine(_ limits: HTTPLimits) -> ConnectionMachine {
        ConnectionMachine(limits: limits, responder: Responder(router: router), remoteAddress: "127.0.0.1", now: 0)
    }

    func testOneRequestInFlightByDefault() {
        var m = defaultMachine(limits)
        let one = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n"
        XCTAssertEqual(receive(&m, String(repeating: one, count: 3), at: 0), [.dispatch("/b", body: "")])
        XCTAssertFalse(m.wantsInput, "nothing more is read while the first is worked on")
        // Each answer lets the next request start, in order, when the connection resumes.
        for index in 0..<2 {
            XCTAssertEqual(ok(&m, sequences[index], at: 0), [.send(200, close: false)])
            XCTAssertTrue(m.hasPendingRequests)
            XCTAssertEqual(steps(m.event(.resume, now: 0)), [.dispatch("/b", body: "")])
            XCTAssertFalse(m.hasPendingRequests)
        }
        XCTAssertEqual(ok(&m, sequences[2], at: 0), [.send(200, close: false)])
        XCTAssertFalse(m.hasPendingRequests)
        XCTAssertTrue(m.wantsInput)
    }

    func testQueuedOutputOverTheBudgetStopsReadingRequests() {
        var limits = self.limits
        limits.maxUnsentOutputBytes = 1000
        var m = defaultMachine(limits)
        let one = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n"
        XCTAssertEqual(receive(&m, one + one, at: 0), [.dispatch("/b", body: "")])
        // The connection queued a large answer the client has not taken yet.
        m.unsentBytes = 5000
        XCTAssertEqual(ok(&m, sequences[0], at: 0), [.send(200, close: false)])
        XCTAssertFalse(m.wantsInput)
        XCTAssertFalse(m.hasPendingRequests, "the queued answer holds the next request back")
        XCTAssertEqual(steps(m.event(.timer, now: 1)), [])
        // Written out: the waiting request starts when the connection resumes.
        m.unsentBytes = 0
        XCTAssertEqual(steps(m.event(.outputDrained, now: 2)), [])
        XCTAssertTrue(m.hasPendingRequests)
        XCTAssertEqual(steps(m.event(.resume, now: 2)), [.dispatch("/b", body: "")])
    }

    func testAClientTricklingBelowTheFloorIsDropped() {
        var limits = self.limits
        limits.minSendBytesPerSecond = 1000
        var m = defaultMachine(limits)
        _ = receive(&m, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 0)
        _ = m.event(.outputBlocked, now: 0)
        // Some bytes move every second, so the write never stalls, but 100 B/s is under the floor.
        for second in 1...9 {
            m.sentBytes += 100
            XCTAssertEqual(steps(m.event(.outputProgressed, now: Double(second))), [])
            XCTAssertEqual(steps(m.event(.timer, now: Double(second))), [])
        }
        m.sentBytes += 100
        _ = m.event(.outputProgressed, now: 10)
        XCTAssertEqual(steps(m.event(.timer, now: 10)), [.close])
    }

    func testAClientReadingAboveTheFloorIsKept() {
        var limits = self.limits
        limits.minSendBytesPerSecond = 1000
        var m = defaultMachine(limits)
        _ = receive(&m, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 0)
        _ = m.event(.outputBlocked, now: 0)
        for second in 1...35 {
            m.sentBytes += 5000
            _ = m.event(.outputProgressed, now: Double(second))
            XCTAssertEqual(steps(m.event(.timer, now: Double(second))), [], "second \(second)")
        }
        XCTAssertNotNil(m.nextDeadline())
    }
}

extension ConnectionMachineTests {
    /// Half a head is nothing to resume: the connection waits for bytes instead of spinning.
    func testPartOfAHeadIsNoPendingRequest() {
        var m = defaultMachine(limits)
        XCTAssertEqual(receive(&m, "GET /a HTTP/1.1\r\nHo", at: 0), [])
        XCTAssertFalse(m.hasPendingRequests)
        XCTAssertEqual(receive(&m, "st: x\r\n\r\n", at: 0), [.dispatch("/a", body: "")])
    }
}
