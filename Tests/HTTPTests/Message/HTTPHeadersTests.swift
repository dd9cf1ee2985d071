import XCTest
@testable import HTTP

final class HTTPHeadersTests: XCTestCase {
    private func parsed(_ fields: String) throws -> RequestHead {
        let bytes = Array("GET /a HTTP/1.1\r\n\(fields)\r\n".utf8)
        let result = bytes.withUnsafeBufferPointer { RequestParser.parseHead($0, limits: HTTPLimits()) }
        guard case .complete(let head, _) = result else { throw NotParsed(result: "\(result)") }
        return head
    }

    private struct NotParsed: Error { let result: String }

    func testParsedValuesReadAsTheyCameWhicheverWayTheyAreRead() throws {
        let head = try parsed("Host: example.org:8080\r\nUser-Agent:  Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 \r\n"
            + "x-custom:\tone\r\nAccept: */*\r\nX-Custom: two\r\nReferer: http://example.org/a/long/page?with=query\r\n")
        let headers = head.headers
        XCTAssertEqual(headers["user-agent"], "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0", "trimmed, found in any case")
        XCTAssertEqual(headers["Host"], "example.org:8080")
        XCTAssertEqual(headers.values("X-CUSTOM"), ["one", "two"])
        XCTAssertEqual(headers["Referer"], "http://example.org/a/long/page?with=query")
        XCTAssertNil(headers["Cookie"])
        XCTAssertTrue(headers.contains("accept"))
        let expected = [("Host", "example.org:8080"), ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0"),
                        ("x-custom", "one"), ("Accept", "*/*"), ("X-Custom", "two"), ("Referer", "http://example.org/a/long/page?with=query")]
        XCTAssertEqual(headers.fields.map(\.name), expected.map(\.0))
        XCTAssertEqual(headers.fields.map(\.value), expected.map(\.1))
        XCTAssertEqual(Array(headers).map(\.value), expected.map(\.1), "iterating spells out the same values")
        XCTAssertEqual(headers.indices.map { headers.value(at: $0) }, expected.map(\.1))
    }

    func testParsedHeadersChangeLikeAnyOthers() throws {
        var headers = try parsed("Host: h\r\nAccept: text/html\r\nAccept-Language: en-GB,en;q=0.9\r\n").headers
        let original = headers
        headers.set("accept", "image/jpeg")
        headers.add("X-Added", "yes")
        headers.remove("Host")
        XCTAssertEqual(headers.fields.map(\.name), ["Accept-Language", "accept", "X-Added"])
        XCTAssertEqual(headers.fields.map(\.value), ["en-GB,en;q=0.9", "image/jpeg", "yes"])
        XCTAssertEqual(original["Accept"], "text/html", "a copy keeps its own fields")
        XCTAssertEqual(original.count, 3)
    }

    func testBytesThatAreNotUTF8ReadAsReplacementCharacters() throws {
        var bytes = Array("GET /a HTTP/1.1\r\nHost: h\r\nX-Name: caf".utf8)
        bytes += [0xE9, 0x21]
        bytes += Array("\r\n\r\n".utf8)
        let result = bytes.withUnsafeBufferPointer { RequestParser.parseHead($0, limits: HTTPLimits()) }
        guard case .complete(let head, _) = result else { return XCTFail("obs-text is a field value's to carry") }
        XCTAssertEqual(head.headers["X-Name"], "caf\u{FFFD}!")
    }

    func testKnownAndUnknownSpellingsOfANameParseAlike() throws {
        for (fields, name, value) in [("Accept-Encoding: gzip", "Accept-Encoding", "gzip"), ("accept-encoding: gzip", "accept-encoding", "gzip"),
                                      ("Range: bytes=0-1", "Range", "bytes=0-1"), ("RANGE: bytes=0-1", "RANGE", "bytes=0-1"),
                                      ("Hostname: x", "Hostname", "x"), ("Accept-Encodings: x", "Accept-Encodings", "x")] {
            let head = try parsed("Host: h\r\n\(fields)\r\n")
            XCTAssertEqual(head.headers.fields.last?.name, name)
            XCTAssertEqual(head.headers.fields.last?.value, value)
            XCTAssertEqual(head.noted, NotedFields(head.headers), "noted as the fields say, for \(fields)")
        }
        XCTAssertEqual(try parsed("HOST: h\r\n").host, "h", "Host in any case frames the request")
        for bad in ["Host : h", "Accept-Encoding\t: gzip", "Acc(ept: x", "Accept-Encoding gzip"] {
            let bytes = Array("GET /a HTTP/1.1\r\nHost: h\r\n\(bad)\r\n\r\n".utf8)
            guard case .invalid = bytes.withUnsafeBufferPointer({ RequestParser.parseHead($0, limits: HTTPLimits()) }) else {
                return XCTFail("\(bad) must be refused")
            }
        }
    }

    func testAHostAlreadyKnownIsTakenAgainAndAnyOtherIsRead() throws {
        let bytes = Array("GET /a HTTP/1.1\r\nHost: example.org\r\n\r\n".utf8)
        for known in ["example.org", "example.com", "example.or", "example.org1", ""] {
            let result = bytes.withUnsafeBufferPointer { RequestParser.parseHead($0, limits: HTTPLimits(), validHost: known) }
            guard case .complete(let head, _) = result else { return XCTFail("not parsed with \(known)") }
            XCTAssertEqual(head.host, "example.org")
            XCTAssertEqual(head.headers["Host"], "example.org")
        }
    }
}
