import Foundation
import XCTest
@testable import HTTP

/// Every malformed or refused request over a real socket: the status, a problem+json body, and
/// `Connection: close` with the connection really closed for parse errors.
final class ProtocolErrorTests: XCTestCase {
    struct Teapot: HTTPResponseError {
        var status: HTTPStatus { HTTPStatus(418) }
        var detail: String { "short and stout" }
    }
    struct Secret: Error {}

    func makeServer() throws -> LiveServer {
        var limits = HTTPLimits()
        limits.maxRequestLineBytes = 256
        limits.maxHeaderBytes = 1024
        return try LiveServer(limits: limits) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: [65]) }
            router.post("/small", maxBodyBytes: 8) { request in HTTPResponse(contentType: "text/plain", bytes: request.body) }
            router.get("/teapot") { _ in throw Teapot() }
            router.get("/boom", execution: .inline) { _ in throw Secret() }
        }
    }

    func expectClose(_ live: LiveServer, _ raw: String, status: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let c = try live.connect()
        try c.send(raw)
        let response = try c.readResponse()
        XCTAssertEqual(response.status, status, raw.debugDescription, file: file, line: line)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json", file: file, line: line)
        XCTAssertTrue(response.text.contains("\"status\":\(status)"), response.text, file: file, line: line)
        XCTAssertEqual(response.headers["Connection"], "close", file: file, line: line)
        XCTAssertTrue(c.waitForClose(), "connection left open after \(raw.debugDescription)", file: file, line: line)
    }

    /// A TLS client on the plain port, or anything else that cannot start a request, hears 400
    /// at once instead of waiting out the head timeout for a 408. The head timeout is ten minutes
    /// and the client reads for half a minute: an answer proves it did not wait for the timeout.
    func testBytesThatCannotStartARequestAreRefusedAtOnce() throws {
        var limits = HTTPLimits()
        limits.headTimeoutSeconds = 600
        let live = try LiveServer(limits: limits) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: [65]) }
        }
        defer { live.stop() }
        let clientHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03] + [UInt8](repeating: 0x5a, count: 32)
        for attempt in [clientHello, Array("\u{0}\u{0}\u{0}".utf8), Array("GET \u{1}".utf8)] {
            let c = try live.connect()
            try c.send(attempt)
            let response = try c.readResponse()
            XCTAssertEqual(response.status, 400)
            XCTAssertEqual(response.headers["Connection"], "close")
            XCTAssertTrue(c.waitForClose())
        }
    }

    func testEmptyOrInvalidHostIsRefused() throws {
        let live = try makeServer()
        defer { live.stop() }
        try expectClose(live, "GET /ok HTTP/1.1\r\nHost:\r\n\r\n", status: 400)
        try expectClose(live, "GET /ok HTTP/1.1\r\nHost: a b\r\n\r\n", status: 400)
        try expectClose(live, "GET /ok HTTP/1.1\r\nHost: evil.example/x\r\n\r\n", status: 400)
        let c = try live.connect()
        try c.send("GET /ok HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 200)
    }

    func testParseErrorsCloseTheConnection() throws {
        let live = try makeServer()
        defer { live.stop() }
        try expectClose(live, "GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\nHost: x\r\n\r\n", status: 414)
        try expectClose(live, "GET /ok HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "b", count: 1100) + "\r\n\r\n", status: 431)
        try expectClose(live, "GET /ok HTTP/1.1\r\n" + (0..<101).map { "X-\($0): 1\r\n" }.joined() + "Host: x\r\n\r\n", status: 431)
        try expectClose(live, "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\nhi", status: 400)
        try expectClose(live, "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nhi", status: 400)
        try expectClose(live, "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 2x\r\n\r\nhi", status: 400)
        try expectClose(live, "GET /ok HTTP/1.1\r\nHost: x\r\nX: 1\r\n folded\r\n\r\n", status: 400)
        try expectClose(live, "GET /ok HTTP/1.1\r\nHost : x\r\n\r\n", status: 400)
        try expectClose(live, "GET /ok HTTP/1.1\r\nHost: x\ry\r\n\r\n", status: 400)
        try expectClose(live, "GET /ok HTTP/1.1\r\n\r\n", status: 400)
        try expectClose(live, "GET /ok HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", status: 400)
        try expectClose(live, "BREW /ok HTTP/1.1\r\nHost: x\r\n\r\n", status: 501)
        try expectClose(live, "GET /ok HTTP/2.0\r\nHost: x\r\n\r\n", status: 505)
        try expectClose(live, "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n123456789", status: 413)
        try expectClose(live, "POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n5\r\n67890\r\n0\r\n\r\n", status: 413)
    }

    func testRefusalsKeepTheConnectionWhenNoBodyIsPending() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        try c.send("DELETE /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        let notAllowed = try c.readResponse()
        XCTAssertEqual(notAllowed.status, 405)
        XCTAssertEqual(notAllowed.headers["Allow"], "GET, HEAD")
        try c.send("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 404)
        try c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try c.readResponse().text, "A")
    }

    func testHandlerErrors() throws {
        let live = try makeServer()
        defer { live.stop() }
        let teapot = try HTTPClient.request(.GET, url: live.url("/teapot"))
        XCTAssertEqual(teapot.status, 418)
        XCTAssertTrue(teapot.text.contains("short and stout"))
        let boom = try HTTPClient.request(.GET, url: live.url("/boom"))
        XCTAssertEqual(boom.status, 500)
        XCTAssertFalse(boom.text.contains("Secret"), "internals leaked: \(boom.text)")
        XCTAssertTrue(live.logs.all.contains { $0.level == .error && $0.metadata.contains { $0.1.contains("Secret") } })
    }

    func testAccessLogAndObserver() throws {
        let live = try makeServer()
        _ = try HTTPClient.get(url: live.url("/ok"))
        live.stop()
        let line = live.logs.all.first { $0.metadata.contains { $0 == ("path", "/ok") } }
        XCTAssertNotNil(line)
        XCTAssertEqual(line?.level, .info)
        let keys = line?.metadata.map(\.0) ?? []
        for key in ["method", "path", "status", "bytes", "ms", "remote"] { XCTAssertTrue(keys.contains(key), key) }
        let completed = live.observer.requests.first { $0.path == "/ok" }
        XCTAssertEqual(completed?.routePattern, "/ok")
        XCTAssertEqual(completed?.status, .ok)
        XCTAssertGreaterThanOrEqual(live.observer.opened, 1)
        XCTAssertEqual(live.observer.opened, live.observer.closed)
    }
}
