import Foundation
import XCTest
@testable import HTTP

/// A client that sends its requests and then shuts its sending side (`shutdown(SHUT_WR)`) gets
/// every complete request answered, in order, and then the connection closes: at once, not
/// after the idle or head timeout. Under edge-triggered epoll the end of input often arrives
/// in the same event as the last bytes, and must be read then.
///
/// The timeouts are ten minutes and a client reads for half a minute: a close the client sees
/// is one that did not wait for a timeout.
final class HalfCloseTests: XCTestCase {
    func makeServer() throws -> LiveServer {
        var limits = HTTPLimits()
        limits.idleTimeoutSeconds = 600
        limits.headTimeoutSeconds = 600
        return try LiveServer(limits: limits) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("ok".utf8)) }
            router.get("/slow") { _ in
                Thread.sleep(forTimeInterval: 0.2)
                return HTTPResponse(contentType: "text/plain", bytes: Array("slow".utf8))
            }
            router.post("/echo") { request in HTTPResponse(contentType: "text/plain", bytes: request.body) }
        }
    }

    /// Sends `raw` and shuts the write side in one go.
    func halfClosed(_ live: LiveServer, _ raw: String) throws -> HTTPClientConnection {
        let c = try live.connect()
        try c.send(raw)
        c.shutdownWrite()
        return c
    }

    func testARequestThenHalfCloseIsAnsweredAndClosedAtOnce() throws {
        let live = try makeServer()
        defer { live.stop() }
        for _ in 0..<20 {
            let c = try halfClosed(live, "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try c.readResponse()
            XCTAssertEqual(response.text, "ok")
            XCTAssertTrue(c.waitForClose())
        }
    }

    func testPipelinedRequestsBeforeHalfCloseAreAllAnsweredInOrder() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try halfClosed(live, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody" + "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try c.readResponse().text, "slow")
        XCTAssertEqual(try c.readResponse().text, "ok")
        XCTAssertEqual(try c.readResponse().text, "body")
        XCTAssertEqual(try c.readResponse().status, 404)
        XCTAssertTrue(c.waitForClose())
    }

    func testAPartialHeadThenHalfCloseIsClosedAtOnce() throws {
        let live = try makeServer()
        defer { live.stop() }
        for partial in ["GET /ok HTTP/1.1\r\nHo", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"] {
            let c = try halfClosed(live, partial)
            XCTAssertTrue(c.waitForClose(), partial.debugDescription)
        }
    }
}
