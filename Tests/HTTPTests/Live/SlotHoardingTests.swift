import Foundation
import XCTest
@testable import HTTP
import TestSupport

/// Connections that never send a request cannot hold the server's slots: each is closed once
/// the head timeout has passed since its accept, and when every slot is taken the one silent
/// the longest makes room for a newcomer. (Today's attack: 41 addresses × 250 silent
/// connections locked everyone out with 503 for the 60 s idle timeout.)
final class SlotHoardingTests: XCTestCase {
    func testSilentConnectionsFromManyAddressesLockNobodyOut() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 12
        limits.headTimeoutSeconds = 0.5
        limits.idleTimeoutSeconds = 60
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("ok".utf8)) }
        }
        defer { live.stop() }
        var silent: [HTTPClientConnection] = []
        for host in 2...5 {
            for _ in 0..<3 { silent.append(try XCTUnwrap(try connect(from: "127.0.0.\(host)", to: live.port))) }
        }
        XCTAssertTrue(eventually(timeout: 5) { live.observer.opened >= 12 })
        // Every slot is held by a silent connection: a newcomer still gets in, at once.
        let started = Date()
        let newcomer = try XCTUnwrap(try connect(from: "127.0.0.9", to: live.port))
        try newcomer.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try newcomer.readResponse()
        XCTAssertEqual(answer.status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.4, "the newcomer waited for a timeout")
        // And the silent ones are gone within the head timeout, not the idle timeout.
        for c in silent { XCTAssertTrue(c.waitForClose()) }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        // The newcomer, idle between requests, keeps its connection (idle timeout, not head timeout).
        try newcomer.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try newcomer.readResponse().status, 200)
    }
}
