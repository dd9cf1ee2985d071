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
