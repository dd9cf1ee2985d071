import XCTest
@testable import HTTP

/// The pure rules behind conditional requests, ranges, dates, compression and response heads.
final class ResponseRulesTests: XCTestCase {
    func testHTTPDateRoundTrip() {
        XCTAssertEqual(HTTPDate.format(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.format(0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(1_835_481_062), "Tue, 29 Feb 2028 23:51:02 GMT")
        for seconds in stride(from: 0, to: 4_000_000_000, by: 86_399 * 97) {
            XCTAssertEqual(HTTPDate.parse(HTTPDate.format(seconds)), seconds)
        }
        XCTAssertNil(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 UTC"))
    }

    func testEntityTagComparison() {
        XCTAssertTrue(EntityTag.matches(list: "\"a\"", tag: "\"a\"", weak: true))
        XCTAssertTrue(EntityTag.matches(list: "W/\"a\"", tag: "\"a\"", weak: true))
        XCTAssertFalse(EntityTag.matches(list: "W/\"a\"", tag: "\"a\"", weak: false))
        XCTAssertTrue(EntityTag.matches(list: "\"x\", W/\"a\" ,\"y\"", tag: "\"a\"", weak: true))
        XCTAssertTrue(EntityTag.matches(list: "\"a,b\"", tag: "\"a,b\"", weak: true))
        XCTAssertTrue(EntityTag.matches(list: " * ", tag: "\"zzz\"", weak: true))
        XCTAssertFalse(EntityTag.matches(list: "\"b\"", tag: "\"a\"", weak: true))
        XCTAssertEqual(EntityTag.variant("\"abc\"", suffix: "gzip"), "\"abc-gzip\"")
        XCTAssertEqual(EntityTag.removingVariant("\"abc-gzip\"", suffix: "gzip"), "\"abc\"")
    }

    func testByteRanges() {
        XCTAssertEqual(ByteRange.parse("bytes=0-9", length: 100), .satisfiable(0..<10))
        XCTAssertEqual(ByteRange.parse("bytes=90-", length: 100), .satisfiable(90..<100))
        XCTAssertEqual(ByteRange.parse("bytes=90-500", length: 100), .satisfiable(90..<100))
        XCTAssertEqual(ByteRange.parse("bytes=-10", length: 100), .satisfiable(90..<100))
        XCTAssertEqual(ByteRange.parse("bytes=-500", length: 100), .satisfiable(0..<100))
        XCTAssertEqual(ByteRange.parse("bytes=100-", length: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=-0", length: 100), .unsatisfiable)
        XCTAssertEqual(ByteRange.parse("bytes=0-1,3-4", length: 100), .ignore)
        XCTAssertEqual(ByteRange.parse("bytes=5-1", length: 100), .ignore)
        XCTAssertEqual(ByteRange.parse("items=0-1", length: 100), .ignore)
        XCTAssertEqual(ByteRange.parse("bytes=a-b", length: 100), .ignore)
    }

    func testAcceptEncoding() {
        XCTAssertTrue(PreparedResponse.acceptsGzip("gzip, deflate, br"))
        XCTAssertTrue(PreparedResponse.acceptsGzip("br;q=1.0, gzip;q=0.8"))
        XCTAssertFalse(PreparedResponse.acceptsGzip("gzip;q=0"))
        XCTAssertFalse(PreparedResponse.acceptsGzip("br"))
        XCTAssertTrue(PreparedResponse.acceptsGzip("*"))
        XCTAssertFalse(PreparedResponse.acceptsGzip("*, gzip;q=0"))
        XCTAssertFalse(PreparedResponse.acceptsGzip(nil))
        // Spelling, spacing and empty pieces as clients send them.
        XCTAssertTrue(PreparedResponse.acceptsGzip("GZIP"))
        XCTAssertTrue(PreparedResponse.acceptsGzip(" \tdeflate ,, X-Gzip ; Q=0.5 "))
        XCTAssertFalse(PreparedResponse.acceptsGzip("gzip ; q=0.000"))
        XCTAssertTrue(PreparedResponse.acceptsGzip("gzip;q=bogus"), "an unreadable q is 1, as before")
        XCTAssertTrue(PreparedResponse.acceptsGzip("gzip;level=9;q=1e-3"))
        XCTAssertFalse(PreparedResponse.acceptsGzip("gzipx, xgzip, gzi, deflate;gzip"))
        XCTAssertFalse(PreparedResponse.acceptsGzip(";q=1, ,"))
        XCTAssertTrue(PreparedResponse.acceptsGzip("*;q=0, *"), "the last * counts")
        XCTAssertFalse(PreparedResponse.acceptsGzip("gzip;q=0, *"), "the first gzip decides")
        XCTAssertFalse(PreparedResponse.acceptsGzip(""))
        XCTAssertTrue(PreparedResponse.acceptsGzip("br,gzip"))
    }

    func testGzipRoundTrip() throws {
        let text = Array(String(repeating: "tile ", count: 1000).utf8)
        let compressed = try XCTUnwrap(Gzip.compress(text))
        XCTAssertEqual(Array(compressed.prefix(2)), [0x1f, 0x8b])
        XCTAssertLessThan(compressed.count, text.count / 10)
        XCTAssertEqual(Gzip.decompress(compressed), text)
        XCTAssertNil(Gzip.decompress([1, 2, 3, 4]))
    }

    func testHeadEncodingCachesTheDatePerSecond() {
        var second = 784_111_777
        var encoder = ResponseHeadEncoder(serverName: "PhotoScroll", clock: { second })
        let response = PreparedResponse(status: .ok, headers: ["Content-Type": "text/plain"], payload: .bytes([65]), contentLength: 1)
        let head = String(decoding: encoder.encode(response, close: false, keepAliveForHTTP10: false), as: UTF8.self)
        XCTAssertEqual(head, "HTTP/1.1 200 OK\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nServer: PhotoScroll\r\nContent-Type: text/plain\r\nContent-Length: 1\r\n\r\n")
        second += 1
        let closing = String(decoding: encoder.encode(response, close: true, keepAliveForHTTP10: false), as: UTF8.self)
        XCTAssertTrue(closing.contains("Date: Sun, 06 Nov 1994 08:49:38 GMT\r\n"))
        XCTAssertTrue(closing.hasSuffix("Connection: close\r\n\r\n"))
        let old = String(decoding: encoder.encode(response, close: false, keepAliveForHTTP10: true), as: UTF8.self)
        XCTAssertTrue(old.contains("Connection: keep-alive\r\n"))
    }
}
