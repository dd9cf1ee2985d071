import Foundation
import XCTest
@testable import HTTP

final class SlowClientTests: XCTestCase {
    func testSlowHeadIsDroppedWhileOthersAreServed() throws {
        var limits = HTTPLimits()
        limits.headTimeoutSeconds = 0.5
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: [79, 75]) }
        }
        defer { live.stop() }
        let slow = try live.connect()
        try slow.send("GET /ok HTTP/1.1\r\nHo")
        let started = Date()
        // Meanwhile, on the same single loop, a fast client is answered at once, many times.
        let fast = try live.connect()
        for _ in 0..<20 {
            try fast.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try fast.readResponse().text, "OK")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
        try? slow.send("st: x\r\nX-Slow: 1\r\n")
        let answer = try slow.readResponse()
        XCTAssertEqual(answer.status, 408)
        XCTAssertTrue(slow.waitForClose())
        let waited = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(waited, 0.45)
        XCTAssertLessThan(waited, 3)
    }

    func testIdleKeepAliveConnectionIsClosed() throws {
        var limits = HTTPLimits()
        limits.idleTimeoutSeconds = 0.3
        let live = try LiveServer(limits: limits) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse() }
        }
        defer { live.stop() }
        let c = try live.connect()
        try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 200)
        let started = Date()
        XCTAssertTrue(c.waitForClose())
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25)
    }

    func testConnectionsOverTheCapAreTurnedAway() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 2
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse() }
        }
        defer { live.stop() }
        let a = try live.connect(), b = try live.connect()
        for c in [a, b] {
            try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try c.readResponse().status, 200)
        }
        let third = try live.connect()
        let refused = try third.readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertTrue(third.waitForClose())
        a.close()
        // Once a slot is free, a new connection is served again.
        var served = false
        for _ in 0..<50 where !served {
            Thread.sleep(forTimeInterval: 0.02)
            let next = try live.connect()
            try? next.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            served = (try? next.readResponse().status) == 200
        }
        XCTAssertTrue(served)
    }
}
