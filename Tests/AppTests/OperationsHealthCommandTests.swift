import Dispatch
import Foundation
import XCTest
@testable import App

final class OperationsHealthCommandTests: XCTestCase {
    func testURLsBecomeTheirHealthzTarget() throws {
        XCTAssertEqual(try HealthProbe.target(url: "http://127.0.0.1:8080"), .init(host: "127.0.0.1", port: 8080, path: "/healthz"))
        XCTAssertEqual(try HealthProbe.target(url: "http://localhost:9000/"), .init(host: "localhost", port: 9000, path: "/healthz"))
        XCTAssertEqual(try HealthProbe.target(url: "HTTP://[::1]:81/photoscroll"), .init(host: "::1", port: 81, path: "/photoscroll/healthz"))
        XCTAssertEqual(try HealthProbe.target(url: "http://example.com/healthz"), .init(host: "example.com", port: 80, path: "/healthz"))
        XCTAssertEqual(HealthProbe.Target(host: "::1", port: 81, path: "/healthz").description, "http://[::1]:81/healthz")
        for bad in ["https://127.0.0.1:8080", "127.0.0.1:8080", "http://:8080", "http://host:0", "http://host:http", "http://[::1"] {
            XCTAssertThrowsError(try HealthProbe.target(url: bad), bad)
        }
    }

    func testHealthyWhenTheServerAnswers200() throws {
        let server = try CannedHTTPServer(answer: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}")
        defer { server.stop() }
        let (code, message) = HealthCommand.check(url: "http://127.0.0.1:\(server.port)", timeoutSeconds: 5)
        XCTAssertEqual(code, 0, message)
        XCTAssertTrue(message.hasPrefix("healthy: http://127.0.0.1:\(server.port)/healthz answered 200"), message)
    }

    func testUnhealthyWith503SaysWhyFromTheProblemDetail() throws {
        let body = #"{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"The server is shutting down."}"#
        let server = try CannedHTTPServer(answer: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        defer { server.stop() }
        let (code, message) = HealthCommand.check(url: "http://localhost:\(server.port)/", timeoutSeconds: 5)
        XCTAssertEqual(code, 1)
        XCTAssertEqual(message, "unhealthy: http://localhost:\(server.port)/healthz answered 503 Service Unavailable: The server is shutting down.")
        XCTAssertFalse(message.contains("\n"))
    }

    func testUnhealthyWhenNothingListens() throws {
        let server = try CannedHTTPServer(answer: "")
        let port = server.port
        server.stop()
        let (code, message) = HealthCommand.check(url: "http://127.0.0.1:\(port)", timeoutSeconds: 5)
        XCTAssertEqual(code, 1)
        XCTAssertTrue(message.contains("Connection refused"), message)
    }

    func testUnhealthyWithinTheTimeoutWhenTheServerHangs() throws {
        let server = try CannedHTTPServer(answer: nil)
        defer { server.stop() }
        let started = DispatchTime.now().uptimeNanoseconds
        let (code, message) = HealthCommand.check(url: "http://127.0.0.1:\(server.port)", timeoutSeconds: 0.3)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        XCTAssertEqual(code, 1)
        XCTAssertTrue(message.contains("no answer from http://127.0.0.1:\(server.port)/healthz within 0.3 s"), message)
        XCTAssertGreaterThanOrEqual(elapsed, 0.25)
        // The server never answers: without the deadline the probe would wait for ever. The
        // margin is a loaded machine's, far from a hang.
        XCTAssertLessThan(elapsed, 0.3 + 20, "the deadline bounds the whole probe")
    }

    func testUnhealthyWhenTheAnswerIsNotHTTP() throws {
        let server = try CannedHTTPServer(answer: "SSH-2.0-OpenSSH_9.2\r\n\r\n")
        defer { server.stop() }
        let (code, message) = HealthCommand.check(url: "http://127.0.0.1:\(server.port)", timeoutSeconds: 5)
        XCTAssertEqual(code, 1)
        XCTAssertTrue(message.contains("no usable answer"), message)
    }
}
