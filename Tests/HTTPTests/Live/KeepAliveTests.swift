import Foundation
import XCTest
@testable import HTTP

final class KeepAliveTests: XCTestCase {
    func testGetWithClientAndKeepAlive() throws {
        let live = try LiveServer { router in
            router.get("/hello", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: Array("hi".utf8)) }
            router.get("/slow") { _ in
                Thread.sleep(forTimeInterval: 0.2)
                return HTTPResponse(contentType: "text/plain", bytes: Array("slow".utf8))
            }
        }
        defer { live.stop() }
        let (status, headers, body) = try HTTPClient.get(url: live.url("/hello"))
        XCTAssertEqual(status, 200)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "hi")
        XCTAssertEqual(headers["Content-Length"], "2")
        XCTAssertNotNil(headers["Date"])
        XCTAssertEqual(headers["Server"], "PhotoScroll")

        let connection = try live.connect()
        for _ in 0..<3 {
            try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.text, "hi")
            XCTAssertNil(response.headers["Connection"])
        }
        // Pipelined: a slow worker route before a fast inline one still answers in order.
        try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try connection.readResponse().text, "slow")
        XCTAssertEqual(try connection.readResponse().text, "hi")
        XCTAssertEqual(try connection.readResponse().status, 404)
    }
}

final class EncodedAnswerLiveTests: XCTestCase {
    /// A cached answer larger than the socket takes at once, pipelined with a HEAD of it: the
    /// writes stop part way (in its fields or its body) and resume, and every byte arrives in order.
    func testLargeCachedAnswersSurvivePartialWritesAndHEAD() throws {
        let body = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let answer = EncodedResponse(headers: HTTPHeaders([("Content-Type", "image/jpeg"), ("ETag", "\"big\"")]), body: body)
        let small = EncodedResponse(headers: HTTPHeaders([("Content-Type", "image/jpeg")]), body: [1, 2, 3])
        let live = try LiveServer(eventLoops: 1) { router in
            router.addReply(.GET, "/big") { _ in .encoded(answer) }
            router.addReply(.GET, "/small") { _ in .encoded(small) }
        }
        defer { live.stop() }
        let client = try live.connect(timeoutSeconds: 10)
        try client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\nHEAD /big HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /small HTTP/1.1\r\nHost: x\r\n\r\nGET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        // Let the server fill the socket and wait for it to drain.
        Thread.sleep(forTimeInterval: 0.3)
        let first = try client.readResponse()
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.headers["ETag"], "\"big\"")
        XCTAssertEqual(first.body, body)
        let head = try client.readResponse(head: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["Content-Length"], String(body.count))
        XCTAssertEqual(head.body, [])
        XCTAssertEqual(try client.readResponse().body, [1, 2, 3])
        XCTAssertEqual(try client.readResponse().body, body)
    }
}
