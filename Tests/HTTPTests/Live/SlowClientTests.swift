import Foundation
import XCTest
@testable import HTTP
import TestSupport

final class SlowClientTests: XCTestCase {
    /// The head timeout is ten minutes, so a loop that waited for the slow head would answer
    /// nobody within the fast client's half-minute reads.
    func testASlowHeadDoesNotHoldUpTheLoop() throws {
        var limits = HTTPLimits()
        limits.headTimeoutSeconds = 600
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: [79, 75]) }
        }
        defer { live.stop() }
        let slow = try live.connect()
        try slow.send("GET /ok HTTP/1.1\r\nHo")
        // Meanwhile, on the same single loop, a fast client is answered, many times.
        let fast = try live.connect()
        for _ in 0..<20 {
            try fast.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try fast.readResponse().text, "OK")
        }
        // The slow one, still within its head timeout, is answered once its head is whole.
        try slow.send("st: x\r\n\r\n")
        XCTAssertEqual(try slow.readResponse().text, "OK")
    }

    /// A head not whole after the head timeout is answered 408 and closed; not before the timeout.
    func testASlowHeadIsAnswered408AfterTheHeadTimeout() throws {
        var limits = HTTPLimits()
        limits.headTimeoutSeconds = 0.5
        limits.idleTimeoutSeconds = 600
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: [79, 75]) }
        }
        defer { live.stop() }
        // Read before the connection is made: the head timeout runs from its accept, which is later.
        let started = Date()
        let slow = try live.connect()
        try slow.send("GET /ok HTTP/1.1\r\nHo")
        try? slow.send("st: x\r\nX-Slow: 1\r\n")
        let answer = try slow.readResponse()
        XCTAssertEqual(answer.status, 408)
        XCTAssertTrue(slow.waitForClose())
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.45, "closed before its head timeout")
    }

    func testIdleKeepAliveConnectionIsClosed() throws {
        var limits = HTTPLimits()
        limits.idleTimeoutSeconds = 0.3
        let live = try LiveServer(limits: limits) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse() }
        }
        defer { live.stop() }
        let c = try live.connect()
        // Read before the request is sent: the idle timeout runs from its answer, which is later.
        let started = Date()
        try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 200)
        XCTAssertTrue(c.waitForClose())
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25, "closed before its idle timeout")
    }

    /// At `maxConnections`, the connection quiet the longest (idle, or silent since its accept)
    /// is closed to admit a new one; only with every slot busy is the new one refused with 503.
    func testAtTheCapTheQuietestConnectionMakesRoom() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 2
        let release = DispatchSemaphore(value: 0)
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse() }
            router.get("/held") { _ in
                _ = release.wait(timeout: .now() + 10)
                return HTTPResponse()
            }
        }
        defer { live.stop() }
        let a = try live.connect(), b = try live.connect()
        for c in [a, b] {
            try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try c.readResponse().status, 200)
        }
        // Both slots hold idle keep-alive connections: the one idle the longest makes room.
        let c = try live.connect()
        XCTAssertTrue(a.waitForClose(), "the connection idle the longest was closed for the new one")
        try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 200)
        // With every slot working on a request, a new connection is refused.
        for held in [b, c] { try held.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n") }
        XCTAssertTrue(eventually(timeout: 30) { live.server.workload.first(where: { $0.lane == .general })?.running == 2 })
        let refused = try live.connect()
        XCTAssertEqual(try refused.readResponse().status, 503)
        XCTAssertTrue(refused.waitForClose())
        release.signal()
        release.signal()
        for held in [b, c] { XCTAssertEqual(try held.readResponse().status, 200) }
    }
}
