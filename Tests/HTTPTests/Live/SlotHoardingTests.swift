import Foundation
import XCTest
@testable import HTTP
import TestSupport

/// Connections that never send a request cannot hold the server's slots: each is closed once
/// the head timeout has passed since its accept, and when every slot is taken the one silent
/// the longest makes room for a newcomer. (Today's attack: 41 addresses × 250 silent
/// connections locked everyone out with 503 for the 60 s idle timeout.)
final class SlotHoardingTests: XCTestCase {
    /// The head timeout is two minutes and the newcomer reads for half of that: an answer proves
    /// a silent connection made room for it, not that the newcomer outwaited a timeout.
    func testSilentConnectionsFromManyAddressesLockNobodyOut() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 12
        limits.headTimeoutSeconds = 120
        limits.idleTimeoutSeconds = 600
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("ok".utf8)) }
        }
        defer { live.stop() }
        var silent: [HTTPClientConnection] = []
        for host in 2...5 {
            for _ in 0..<3 { silent.append(try XCTUnwrap(try connect(from: "127.0.0.\(host)", to: live.port))) }
        }
        XCTAssertTrue(eventually(timeout: 30) { live.observer.opened >= 12 })
        // Every slot is held by a silent connection: a newcomer still gets in.
        let newcomer = try XCTUnwrap(try connect(from: "127.0.0.9", to: live.port, timeoutSeconds: 60))
        try newcomer.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try newcomer.readResponse().status, 200, "the newcomer was not let in before the head timeout")
        XCTAssertTrue(eventually(timeout: 30) { live.observer.closed == 1 }, "one silent connection made room")
        withExtendedLifetime(silent) {}
    }

    /// The idle timeout is ten minutes: silent connections closed within the test's wait were
    /// closed for the head timeout. A connection that sent a request keeps its slot while it
    /// idles past the head timeout (the idle timeout, not the head timeout, is its limit).
    func testSilentConnectionsAreClosedAfterTheHeadTimeoutNotTheIdleTimeout() throws {
        var limits = HTTPLimits()
        limits.headTimeoutSeconds = 0.5
        limits.idleTimeoutSeconds = 600
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("ok".utf8)) }
        }
        defer { live.stop() }
        let served = try XCTUnwrap(try connect(from: "127.0.0.9", to: live.port))
        try served.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try served.readResponse().status, 200)
        // Opened after the request was answered, so `served` has idled past the head timeout
        // by the time these are closed for it.
        var silent: [HTTPClientConnection] = []
        for host in 2...5 {
            for _ in 0..<3 { silent.append(try XCTUnwrap(try connect(from: "127.0.0.\(host)", to: live.port))) }
        }
        for c in silent { XCTAssertTrue(c.waitForClose(), "a silent connection outlived the head timeout") }
        try served.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try served.readResponse().status, 200, "an idle connection was closed for the head timeout")
    }
}
