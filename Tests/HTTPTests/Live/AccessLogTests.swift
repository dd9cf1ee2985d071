import Foundation
import Observability
import XCTest
@testable import HTTP
import TestSupport

/// The access log as the server writes it to a descriptor: batched per loop, flushed within a
/// tenth of a second and at shutdown, lines whole and unforgeable.
final class AccessLogTests: XCTestCase {
    private func logFile() throws -> (path: String, fd: Int32) {
        let path = NSTemporaryDirectory() + "access-\(UUID().uuidString).log"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        return (path, fd)
    }

    private func lines(_ path: String) -> [Substring] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n")
    }

    func testEveryRequestIsLoggedByShutdownWithNoLineLostOrSplit() throws {
        let (path, fd) = try logFile()
        defer { close(fd); unlink(path) }
        let live = try LiveServer(sink: StreamLogSink(format: .text, fileDescriptor: fd)) { router in
            router.get("/hello", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("hi".utf8)) }
        }
        // Four clients over both loops, as fast as they can.
        let perClient = 500
        DispatchQueue.concurrentPerform(iterations: 4) { client in
            guard let connection = try? live.connect() else { return }
            for i in 0..<perClient {
                try? connection.send("GET /hello?c=\(client)&i=\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try? connection.readResponse()
            }
            connection.close()
        }
        live.stop()
        let logged = lines(path)
        XCTAssertEqual(logged.count, 4 * perClient)
        for line in logged {
            XCTAssertTrue(line.hasPrefix("20"), String(line))
            XCTAssertTrue(line.contains(" info    http: GET /hello 200 method=GET path=/hello status=200 bytes="), String(line))
            XCTAssertTrue(line.hasSuffix(" remote=127.0.0.1"), String(line))
        }
    }

    func testALineReachesTheFileWhileNothingElseHappens() throws {
        let (path, fd) = try logFile()
        defer { close(fd); unlink(path) }
        let live = try LiveServer(sink: StreamLogSink(format: .json, fileDescriptor: fd)) { router in
            router.get("/hello", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("hi".utf8)) }
        }
        defer { live.stop() }
        let connection = try live.connect()
        try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try connection.readResponse().status, 200)
        // Nothing else happens on the loop: only the flush deadline can write the line.
        eventually(timeout: 30) { !lines(path).isEmpty }
        let logged = lines(path)
        XCTAssertEqual(logged.count, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(logged[0].utf8)) as? [String: String])
        XCTAssertEqual(object["message"], "GET /hello 200")
        XCTAssertEqual(object["status"], "200")
        XCTAssertEqual(object["logger"], "http")
    }

    /// `%0a` in a path decodes to a line feed; in the text log it must stay inside its line.
    func testAnEncodedLineBreakInAPathCannotForgeALine() throws {
        let (path, fd) = try logFile()
        defer { close(fd); unlink(path) }
        let live = try LiveServer(sink: StreamLogSink(format: .text, fileDescriptor: fd)) { router in
            router.get("/*rest", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("hi".utf8)) }
        }
        let connection = try live.connect()
        let forged = "%0a2026-01-01T00:00:00.000Z%20error%20%20%20http:%20forged%0d%1b[2J"
        try connection.send("GET /x\(forged) HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try connection.readResponse().status, 200)
        live.stop()
        let logged = lines(path)
        XCTAssertEqual(logged.count, 1, logged.joined(separator: "\n"))
        XCTAssertTrue(logged[0].contains(#"GET "/x\n2026-01-01T00:00:00.000Z error   http: forged\r\x1b[2J" 200"#), String(logged[0]))
        XCTAssertTrue(logged[0].contains(#" path="/x\n2026-01-01T00:00:00.000Z error   http: forged\r\x1b[2J" "#), String(logged[0]))
    }

    /// The attack of the issue, over the wire: `GET /x%20remote=6.6.6.6%20status=200` must not
    /// put a `remote=` or `status=` field of the client's choosing on the line.
    func testAPathCannotPlantFieldsInTheMessage() throws {
        let (path, fd) = try logFile()
        defer { close(fd); unlink(path) }
        let live = try LiveServer(sink: StreamLogSink(format: .text, fileDescriptor: fd)) { router in
            router.get("/ok", execution: .inline) { _ in HTTPResponse() }
        }
        let connection = try live.connect()
        try connection.send("GET /x%20remote=6.6.6.6%20status=200 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try connection.readResponse().status, 404)
        live.stop()
        let logged = lines(path)
        XCTAssertEqual(logged.count, 1)
        let line = String(logged[0])
        XCTAssertTrue(line.contains(#"http: GET "/x remote=6.6.6.6 status=200" 404 method=GET"#), line)
        XCTAssertEqual(line.components(separatedBy: " remote=").count, 4, "twice the path's, inside quotes, and the real one: \(line)")
        XCTAssertTrue(line.hasSuffix(" remote=127.0.0.1"), line)
    }
}
