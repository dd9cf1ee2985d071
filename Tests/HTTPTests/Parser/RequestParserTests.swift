import XCTest
@testable import HTTP

/// The parser's table: every request is also fed split at every byte boundary, and the outcome
/// must not depend on where the split falls.
final class RequestParserTests: XCTestCase {
    enum Expected: Equatable {
        case complete(method: String, target: String, minor: Int)
        case status(Int)
    }

    static var limits: HTTPLimits {
        var limits = HTTPLimits()
        limits.maxRequestLineBytes = 64
        limits.maxHeaderBytes = 160
        limits.maxHeaderCount = 6
        return limits
    }

    static let table: [(String, String, Expected)] = [
        ("simple GET", "GET / HTTP/1.1\r\nHost: a\r\n\r\n", .complete(method: "GET", target: "/", minor: 1)),
        ("HTTP/1.0 needs no Host", "GET /x HTTP/1.0\r\n\r\n", .complete(method: "GET", target: "/x", minor: 0)),
        ("empty lines before the request", "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", .complete(method: "GET", target: "/", minor: 1)),
        ("query and escapes", "GET /p%20q?a=1&b=%2F HTTP/1.1\r\nHost: a\r\n\r\n", .complete(method: "GET", target: "/p%20q?a=1&b=%2F", minor: 1)),
        ("absolute-form", "GET http://a.example/x?y HTTP/1.1\r\nHost: a\r\n\r\n", .complete(method: "GET", target: "/x?y", minor: 1)),
        ("OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", .complete(method: "OPTIONS", target: "*", minor: 1)),
        ("chunked POST", "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", .complete(method: "POST", target: "/c", minor: 1)),
        ("Content-Length POST", "POST /c HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n", .complete(method: "POST", target: "/c", minor: 1)),
        ("100-continue", "POST /c HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\n", .complete(method: "POST", target: "/c", minor: 1)),
        ("minor version 9 is still 1.x", "GET / HTTP/1.9\r\nHost: a\r\n\r\n", .complete(method: "GET", target: "/", minor: 9)),
        ("obs-text value", "GET / HTTP/1.1\r\nHost: a\r\nX-Name: caf\u{e9}\r\n\r\n", .complete(method: "GET", target: "/", minor: 1)),
        ("request line over the limit", "GET /" + String(repeating: "a", count: 80) + " HTTP/1.1\r\nHost: a\r\n\r\n", .status(414)),
        ("header section over the limit", "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 200) + "\r\n\r\n", .status(431)),
        ("too many fields", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\nE: 1\r\nF: 1\r\n\r\n", .status(431)),
        ("Content-Length with Transfer-Encoding", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", .status(400)),
        ("duplicate Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", .status(400)),
        ("Content-Length list", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\n", .status(400)),
        ("negative Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", .status(400)),
        ("non-numeric Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", .status(400)),
        ("huge Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", .status(400)),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n  continued\r\n\r\n", .status(400)),
        ("space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", .status(400)),
        ("bare CR in a field", "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", .status(400)),
        ("bare CR in the request line", "GET /\r HTTP/1.1\r\nHost: a\r\n\r\n", .status(400)),
        ("bare LF ending a line", "GET / HTTP/1.1\nHost: a\r\n\r\n", .status(400)),
        ("missing Host on 1.1", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", .status(400)),
        ("duplicate Host", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .status(400)),
        ("unknown method", "BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n", .status(501)),
        ("methods are case-sensitive", "get / HTTP/1.1\r\nHost: a\r\n\r\n", .status(501)),
        ("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", .status(505)),
        ("HTTP/3.0", "GET / HTTP/3.0\r\nHost: a\r\n\r\n", .status(505)),
        ("HTTP/0.9", "GET / HTTP/0.9\r\n\r\n", .status(505)),
        ("garbage version", "GET / HTTQ/1.1\r\nHost: a\r\n\r\n", .status(400)),
        ("trailing junk after the version", "GET / HTTP/1.1 x\r\nHost: a\r\n\r\n", .status(400)),
        ("no target", "GET  HTTP/1.1\r\nHost: a\r\n\r\n", .status(400)),
        ("relative target", "GET x HTTP/1.1\r\nHost: a\r\n\r\n", .status(400)),
        ("NUL in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", .status(400)),
        ("header without colon", "GET / HTTP/1.1\r\nHost: a\r\nJunk\r\n\r\n", .status(400)),
        ("unknown transfer coding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .status(501)),
        ("transfer coding not ending in chunked", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n", .status(400)),
        ("chunked on HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", .status(400)),
        ("unsupported expectation", "POST / HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\n\r\n", .status(417)),
        // Bytes that cannot start a request are refused on sight.
        ("TLS ClientHello", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}", .status(400)),
        ("NUL before the method", "\u{0}GET / HTTP/1.1\r\nHost: a\r\n\r\n", .status(400)),
        ("space before the method", " GET / HTTP/1.1\r\nHost: a\r\n\r\n", .status(400)),
        ("target starting with neither / nor * nor a letter", "GET %2F HTTP/1.1\r\nHost: a\r\n\r\n", .status(400)),
        ("a 21-byte method", "ABCDEFGHIJKLMNOPQRSTU / HTTP/1.1\r\nHost: a\r\n\r\n", .status(400)),
        ("a 20-byte method is merely unknown", "ABCDEFGHIJKLMNOPQRST / HTTP/1.1\r\nHost: a\r\n\r\n", .status(501)),
        ("SSH banner", "SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", .status(400)),
        // Host must be a host, with an optional port.
        ("empty Host", "GET / HTTP/1.1\r\nHost: \r\n\r\n", .status(400)),
        ("empty Host on 1.0", "GET / HTTP/1.0\r\nHost:\r\n\r\n", .status(400)),
        ("Host with a space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", .status(400)),
        ("Host with a slash", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", .status(400)),
        ("Host with userinfo", "GET / HTTP/1.1\r\nHost: user@a\r\n\r\n", .status(400)),
        ("Host with a non-numeric port", "GET / HTTP/1.1\r\nHost: a:b\r\n\r\n", .status(400)),
        ("Host with a six-digit port", "GET / HTTP/1.1\r\nHost: a:123456\r\n\r\n", .status(400)),
        ("Host with an unclosed bracket", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", .status(400)),
        ("Host of only a port", "GET / HTTP/1.1\r\nHost: :80\r\n\r\n", .status(400)),
        ("IPv6 Host with a port", "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", .complete(method: "GET", target: "/", minor: 1)),
        ("Host with an empty port", "GET / HTTP/1.1\r\nHost: photos.example:\r\n\r\n", .complete(method: "GET", target: "/", minor: 1)),
        ("Host with sub-delims and escapes", "GET / HTTP/1.1\r\nHost: my_host-1.example%41\r\n\r\n", .complete(method: "GET", target: "/", minor: 1)),
    ]

    func outcome(_ bytes: [UInt8]) -> (Expected?, Int) {
        let result = bytes.withUnsafeBufferPointer { RequestParser.parseHead($0, limits: Self.limits) }
        switch result {
        case .needMore: return (nil, 0)
        case .invalid(let error): return (.status(error.status.rawValue), 0)
        case .complete(let head, let consumed):
            return (.complete(method: head.method.rawValue, target: head.target, minor: head.version.minor), consumed)
        }
    }

    func testAHostKnownToBeValidIsNotCheckedAgainAndAnyOtherIs() {
        func parse(_ text: String, validHost: String?) -> HeadParseResult {
            Array(text.utf8).withUnsafeBufferPointer { RequestParser.parseHead($0, limits: HTTPLimits(), validHost: validHost) }
        }
        let good = "GET / HTTP/1.1\r\nHost: photos.example:8080\r\n\r\n"
        for validHost in [nil, "photos.example:8080", "other.example"] {
            guard case .complete(let head, _) = parse(good, validHost: validHost) else { return XCTFail("\(String(describing: validHost))") }
            XCTAssertEqual(head.host, "photos.example:8080")
        }
        for bad in ["photos example", "", "a:123456", "[::1"] {
            guard case .invalid(let error) = parse("GET / HTTP/1.1\r\nHost: \(bad)\r\n\r\n", validHost: "photos.example:8080") else {
                return XCTFail(bad)
            }
            XCTAssertEqual(error.status, .badRequest, bad)
        }
    }

    func testTable() {
        for (name, text, expected) in Self.table {
            let bytes = Array(text.utf8)
            let (whole, consumed) = outcome(bytes)
            XCTAssertEqual(whole, expected, name)
            if case .complete = expected { XCTAssertEqual(consumed, bytes.count, name) }
        }
    }

    func testEverySplitGivesTheSameOutcome() {
        for (name, text, expected) in Self.table {
            let bytes = Array(text.utf8)
            for split in 0...bytes.count {
                // First the prefix as if it were all that had arrived, then the whole request.
                let (early, _) = outcome(Array(bytes[0..<split]))
                let final = early ?? outcome(bytes).0
                XCTAssertEqual(final, expected, "\(name), split at \(split)")
            }
        }
    }

    func testPipelinedRequestsAreConsumedOneByOne() {
        let bytes = Array("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let (first, consumed) = outcome(bytes)
        XCTAssertEqual(first, .complete(method: "GET", target: "/a", minor: 1))
        XCTAssertEqual(outcome(Array(bytes[consumed...])).0, .complete(method: "GET", target: "/b", minor: 1))
    }

    /// The host-byte bitmap says what RFC 3986's sets say, for every byte value.
    func testHostBytesAreUnreservedSubDelimsAndPercent() {
        let allowed = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=%".utf8))
        for byte in 0...255 {
            XCTAssertEqual(RequestParser.isHostByte(UInt8(byte)), allowed.contains(UInt8(byte)), "byte \(byte)")
        }
    }

    func testHeadFieldsAndFraming() throws {
        let bytes = Array("POST /c HTTP/1.1\r\nHost:  a.example \r\nX-Multi: 1\r\nx-multi: 2\r\nContent-Length: 12\r\nExpect: 100-continue\r\n\r\n".utf8)
        let result = bytes.withUnsafeBufferPointer { RequestParser.parseHead($0, limits: HTTPLimits()) }
        guard case .complete(let head, _) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(head.headers["host"], "a.example")
        XCTAssertEqual(head.headers.values("X-Multi"), ["1", "2"])
        XCTAssertEqual(head.contentLength, 12)
        XCTAssertTrue(head.expectsContinue)
        XCTAssertFalse(head.chunked)
        XCTAssertTrue(head.hasBody)
    }
}

extension RequestParserTests {
    /// Random and mutated requests never crash the parser and never depend on how they are split.
    func testMutatedRequestsAreSplitIndependent() {
        var generator = SystemRandomNumberGenerator()
        let seeds = Self.table.map { Array($0.1.utf8) }
        for round in 0..<300 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert([13, 10, 32, 58, 0, 0x7f].randomElement(using: &generator)!, at: index)
                }
                if bytes.isEmpty { bytes = [13] }
            }
            let whole = outcome(bytes).0
            for split in stride(from: 0, through: bytes.count, by: 3) {
                let (early, _) = outcome(Array(bytes[0..<split]))
                XCTAssertEqual(early ?? whole, whole, "\(bytes) split at \(split)")
            }
        }
    }
}
