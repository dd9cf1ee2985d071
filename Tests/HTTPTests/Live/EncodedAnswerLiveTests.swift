import Foundation
import XCTest
@testable import HTTP

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
