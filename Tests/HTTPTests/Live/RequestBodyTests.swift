import Foundation
import XCTest
@testable import HTTP

final class RequestBodyTests: XCTestCase {
    func makeServer() throws -> LiveServer {
        try LiveServer { router in
            router.post("/echo", maxBodyBytes: 100_000) { request in
                HTTPResponse(contentType: "application/octet-stream", bytes: request.body)
            }
        }
    }

    func testContentLengthAndChunkedUploads() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        let payload = (0..<70_000).map { UInt8(truncatingIfNeeded: $0) }
        try c.send(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(payload.count)\r\n\r\n".utf8) + payload)
        XCTAssertEqual(try c.readResponse().body, payload)

        var chunked = Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for start in stride(from: 0, to: payload.count, by: 30_000) {
            let piece = payload[start..<min(start + 30_000, payload.count)]
            chunked += Array("\(String(piece.count, radix: 16));ext=1\r\n".utf8) + piece + [13, 10]
        }
        chunked += Array("0\r\nX-Checksum: none\r\n\r\n".utf8)
        try c.send(chunked)
        XCTAssertEqual(try c.readResponse().body, payload)
    }

    func testPostAnswersAreGzippedWhenWorthIt() throws {
        let live = try LiveServer { router in
            router.post("/json") { request in
                HTTPResponse(contentType: "application/json", bytes: Array(repeating: UInt8(ascii: "7"), count: Int(String(decoding: request.body, as: UTF8.self)) ?? 0))
            }
        }
        defer { live.stop() }
        let c = try live.connect()
        try c.send("POST /json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nContent-Length: 4\r\n\r\n5000")
        let big = try c.readResponse()
        XCTAssertEqual(big.headers["Content-Encoding"], "gzip")
        XCTAssertEqual(Gzip.decompress(big.body)?.count, 5000)
        try c.send("POST /json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nContent-Length: 2\r\n\r\n20")
        let small = try c.readResponse()
        XCTAssertNil(small.headers["Content-Encoding"])
        XCTAssertEqual(small.headers["Vary"], "Accept-Encoding")
        XCTAssertEqual(small.body.count, 20)
    }

    func testExpectContinue() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 100)
        try c.send("hello")
        let answer = try c.readResponse()
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.text, "hello")

        let refused = try live.connect()
        try refused.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 500000\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(try refused.readResponse().status, 413)
        let missing = try live.connect()
        try missing.send("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(try missing.readResponse().status, 404)
    }
}
