import Foundation
import XCTest
@testable import HTTP
import TestSupport

/// Over real sockets: a flood in one lane leaves the others answering, the server reports it
/// saturated, and one address cannot hold more than its share of connections.
final class WorkLaneLiveTests: XCTestCase {
    /// The renders hold their threads until the test ends, so a catalog answer behind them would
    /// never come: every answer the test gets proves the catalog did not wait for the renders.
    func testAFloodOfSlowRequestsInOneLaneLeavesTheOthersFast() throws {
        let renders = WorkLane("renders"), catalog = WorkLane("catalog")
        let release = DispatchSemaphore(value: 0)
        let live = try LiveServer(workerThreads: 1, lanes: [renders: 2, catalog: 1], saturatedAfterSeconds: 0.3) { router in
            router.get("/render", lane: renders) { _ in
                release.wait()
                return HTTPResponse(contentType: "text/plain", bytes: Array("tile".utf8))
            }
            router.get("/photos", lane: catalog) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("list".utf8)) }
        }
        let clients = 40
        defer {
            for _ in 0..<clients { release.signal() }
            live.stop(graceSeconds: 0.1)
        }
        var flood: [HTTPClientConnection] = []
        for _ in 0..<clients {
            let c = try live.connect()
            try c.send("GET /render HTTP/1.1\r\nHost: x\r\n\r\n")
            flood.append(c)
        }
        XCTAssertTrue(eventually(timeout: 30) { live.server.saturation.map(\.lane) == [renders] }, "the render lane is behind")
        for _ in 0..<5 {
            XCTAssertEqual(try HTTPClient.get(url: live.url("/photos"), timeoutSeconds: 30).status, 200, "the catalog waited behind renders")
        }
        XCTAssertEqual(live.server.workload.first { $0.lane == renders }?.running, 2, "the renders still held their threads")
        flood.forEach { $0.close() }
    }

    func testOneAddressHoldsAtMostItsShareAndItsOldestIdleConnectionGoesFirst() throws {
        var limits = HTTPLimits()
        limits.maxConnectionsPerAddress = 3
        // Held until the test lets it go, so the address's connections stay busy for as long as it needs.
        let release = DispatchSemaphore(value: 0)
        let live = try LiveServer(limits: limits, eventLoops: 1) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse() }
            router.get("/slow") { _ in
                _ = release.wait(timeout: .now() + 120)
                return HTTPResponse()
            }
        }
        defer { live.stop() }
        var idle: [HTTPClientConnection] = []
        for _ in 0..<3 {
            let c = try XCTUnwrap(try connect(from: "127.0.0.2", to: live.port))
            try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try c.readResponse().status, 200)
            idle.append(c)
            Thread.sleep(forTimeInterval: 0.02)
        }
        // A fourth from the same address is served; the one idle the longest is closed for it.
        let fourth = try XCTUnwrap(try connect(from: "127.0.0.2", to: live.port))
        try fourth.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try fourth.readResponse().status, 200)
        XCTAssertTrue(idle[0].waitForClose())
        for c in idle[1...] {
            try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try c.readResponse().status, 200, "a newer connection was kept")
        }
        // Every connection of the address busy: a further one is turned away with 503.
        let busy = Array(idle[1...]) + [fourth]
        for c in busy { try c.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n") }
        XCTAssertTrue(eventually(timeout: 30) { live.server.workload.first { $0.lane == .general }?.running == busy.count })
        let refused = try XCTUnwrap(try connect(from: "127.0.0.2", to: live.port))
        let refusal = try refused.readResponse()
        XCTAssertEqual(refusal.status, 503)
        XCTAssertEqual(refusal.headers["Content-Type"], "application/problem+json")
        XCTAssertEqual(refusal.headers["Retry-After"], "1")
        XCTAssertEqual(refusal.headers["Connection"], "close")
        let problem = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(refusal.body)) as? [String: Any])
        XCTAssertEqual(problem["status"] as? Int, 503)
        XCTAssertEqual(problem["detail"] as? String, "Your address has too many connections open; close some or try again soon.")
        // Another address is not affected.
        let other = try XCTUnwrap(try connect(from: "127.0.0.3", to: live.port))
        try other.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try other.readResponse().status, 200)
        for _ in busy { release.signal() }
        for c in busy { XCTAssertEqual(try c.readResponse().status, 200) }
    }

    /// The kernel spreads one address's connections over the loops as it likes; the cap counts
    /// them all, so a browser's six connections are all kept with a cap of six on two loops,
    /// however they land (a share of three per loop closed one whenever four landed together).
    func testTheCapCountsAnAddressOverEveryLoop() throws {
        var limits = HTTPLimits()
        limits.maxConnectionsPerAddress = 6
        let live = try LiveServer(limits: limits, eventLoops: 2) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse() }
        }
        defer { live.stop() }
        // Five browsers: the chance that all five split their connections three and three is
        // below one in three hundred.
        for browser in 1...5 {
            let source = "127.0.1.\(browser)"
            var open: [HTTPClientConnection] = []
            for _ in 0..<6 {
                let c = try XCTUnwrap(try connect(from: source, to: live.port))
                try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                XCTAssertEqual(try c.readResponse().status, 200, source)
                open.append(c)
            }
            for c in open {
                try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                XCTAssertEqual(try c.readResponse().status, 200, "every connection within the cap is kept (\(source))")
            }
            // A seventh: served in place of one idle connection, or refused when none of the
            // address's idle ones is on the loop it reached; never a seventh open at once.
            let seventh = try XCTUnwrap(try connect(from: source, to: live.port))
            try seventh.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let status = try seventh.readResponse().status
            var closed = 0
            for c in open {
                try? c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                if (try? c.readResponse())?.status != 200 { closed += 1 }
            }
            XCTAssertTrue((status == 200 && closed == 1) || (status == 503 && closed == 0),
                          "the seventh got \(status) and \(closed) of the six were closed (\(source))")
            (open + [seventh]).forEach { $0.close() }
        }
    }
}
