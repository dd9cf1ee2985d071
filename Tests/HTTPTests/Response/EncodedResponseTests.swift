import XCTest
@testable import HTTP

/// A cached answer whose fields are encoded once must go out exactly as the generic
/// preparation would have written it, and must step aside for every request it cannot answer plainly.
final class EncodedResponseTests: XCTestCase {
    private let headers: HTTPHeaders = [
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-cache",
        "ETag": "\"abc\"",
        "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
    ]
    private let body = [UInt8](repeating: 65, count: 2000)

    /// The head the generic path writes for `response` (no encoded fields).
    private func genericHead(_ response: HTTPResponse, _ request: HTTPRequest, close: Bool = false) -> String {
        var encoder = ResponseHeadEncoder(serverName: "PhotoScroll", clock: { 784_111_777 })
        let prepared = PreparedResponse(HTTPResponse(status: response.status, headers: response.headers, body: response.body), for: request)
        XCTAssertNil(prepared.encodedFields)
        return String(decoding: encoder.encode(prepared, close: close, keepAliveForHTTP10: false), as: UTF8.self)
    }

    func testPlainGetUsesTheEncodedFieldsAndMatchesTheGenericHead() {
        let encoded = EncodedResponse(headers: headers, body: body)
        let response = HTTPResponse(encoded)
        let request = HTTPRequest(method: .GET, target: "/a.txt")
        let prepared = PreparedResponse(response, for: request)
        XCTAssertNotNil(prepared.encodedFields)
        XCTAssertEqual(prepared.payloadLength, body.count)

        var encoder = ResponseHeadEncoder(serverName: "PhotoScroll", clock: { 784_111_777 })
        let prefix = try! XCTUnwrap(encoder.readyPrefix(for: prepared, close: false, keepAliveForHTTP10: false))
        let split = String(decoding: prefix + prepared.encodedFields!, as: UTF8.self)
        let whole = String(decoding: encoder.encode(prepared, close: false, keepAliveForHTTP10: false), as: UTF8.self)
        let generic = genericHead(response, request)
        XCTAssertEqual(split, generic)
        XCTAssertEqual(whole, generic)
        XCTAssertTrue(generic.contains("Content-Length: 2000\r\n"))
        XCTAssertTrue(generic.contains("Accept-Ranges: bytes\r\n"))
        XCTAssertTrue(generic.contains("Vary: Accept-Encoding\r\n"))
        XCTAssertTrue(generic.hasSuffix("\r\n\r\n"))
    }

    func testConnectionLinesGoBeforeTheBlankLine() {
        let response = HTTPResponse(EncodedResponse(headers: headers, body: body))
        let request = HTTPRequest(method: .GET, target: "/a.txt")
        let prepared = PreparedResponse(response, for: request)
        var encoder = ResponseHeadEncoder(serverName: "PhotoScroll", clock: { 784_111_777 })
        XCTAssertNil(encoder.readyPrefix(for: prepared, close: true, keepAliveForHTTP10: false))
        XCTAssertNil(encoder.readyPrefix(for: prepared, close: false, keepAliveForHTTP10: true))
        let closing = String(decoding: encoder.encode(prepared, close: true, keepAliveForHTTP10: false), as: UTF8.self)
        XCTAssertEqual(closing, genericHead(response, request, close: true))
        XCTAssertTrue(closing.hasSuffix("Content-Length: 2000\r\nConnection: close\r\n\r\n"))
    }

    func testHeadAnnouncesTheLengthWithoutABody() {
        let response = HTTPResponse(EncodedResponse(headers: headers, body: body))
        let prepared = PreparedResponse(response, for: HTTPRequest(method: .HEAD, target: "/a.txt"))
        XCTAssertNotNil(prepared.encodedFields)
        XCTAssertEqual(prepared.payloadLength, 0)
        XCTAssertTrue(String(decoding: prepared.encodedFields!, as: UTF8.self).contains("Content-Length: 2000\r\n"))
    }

    func testConditionsRangesAndGzipTakeTheGenericPath() {
        let response = HTTPResponse(EncodedResponse(headers: headers, body: body))
        let notModified = PreparedResponse(response, for: HTTPRequest(method: .GET, target: "/a", headers: ["If-None-Match": "\"abc\""]))
        XCTAssertEqual(notModified.status, .notModified)
        XCTAssertNil(notModified.encodedFields)

        let partial = PreparedResponse(response, for: HTTPRequest(method: .GET, target: "/a", headers: ["Range": "bytes=0-9"]))
        XCTAssertEqual(partial.status, .partialContent)
        XCTAssertEqual(partial.payloadLength, 10)
        XCTAssertNil(partial.encodedFields)

        let gzipped = PreparedResponse(response, for: HTTPRequest(method: .GET, target: "/a", headers: ["Accept-Encoding": "gzip"]))
        XCTAssertEqual(gzipped.headers["Content-Encoding"], "gzip")
        XCTAssertNil(gzipped.encodedFields)

        // An image is not compressible: gzip on offer changes nothing, so the plain answer stands.
        let image = HTTPResponse(EncodedResponse(headers: ["Content-Type": "image/jpeg"], body: body))
        let plainImage = PreparedResponse(image, for: HTTPRequest(method: .GET, target: "/a", headers: ["Accept-Encoding": "gzip"]))
        XCTAssertNotNil(plainImage.encodedFields)
    }

    func testChangingTheResponseDropsTheEncodedFields() {
        var response = HTTPResponse(EncodedResponse(headers: headers, body: body))
        XCTAssertNotNil(response.encoded)
        response.headers.set("Cache-Control", "no-store")
        XCTAssertNil(response.encoded)
        let prepared = PreparedResponse(response, for: HTTPRequest(method: .GET, target: "/a"))
        XCTAssertNil(prepared.encodedFields)
        XCTAssertEqual(prepared.headers["Cache-Control"], "no-store")

        var other = HTTPResponse(EncodedResponse(headers: headers, body: body))
        other.status = .accepted
        XCTAssertNil(other.encoded)
        var third = HTTPResponse(EncodedResponse(headers: headers, body: body))
        third.body = .bytes([1, 2, 3])
        XCTAssertNil(third.encoded)
    }
}
