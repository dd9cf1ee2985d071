import Foundation
import XCTest
@testable import HTTP

/// `Connection` tokens decide whether a connection stays open: read over bytes, they must agree
/// with splitting, trimming and lowercasing the values as text.
final class ConnectionHeaderTests: XCTestCase {
    private func reference(_ values: [String], _ version: HTTPVersion) -> Bool {
        guard !values.isEmpty else { return version == .http1_0 }
        let tokens = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).lowercased() }
        if tokens.contains("close") { return true }
        if version == .http1_0 { return !tokens.contains("keep-alive") }
        return false
    }

    func testTokensAgreeWithTheTextReading() {
        let pieces = ["close", "Close", "CLOSE", "keep-alive", "Keep-Alive", "upgrade", "", " ", "\tclose ", " keep-alive\t",
                      "closed", "clos", "keep-alive2", "x-close", "close;", "keep alive"]
        var cases: [[String]] = [[]]
        for a in pieces {
            cases.append([a])
            for b in pieces.prefix(8) {
                cases.append([a + "," + b])
                cases.append([a, b])
            }
        }
        for values in cases {
            var headers = HTTPHeaders([("Host", "a")])
            for value in values { headers.add(["Connection", "connection", "CONNECTION"][values.count % 3], value) }
            for version in [HTTPVersion.http1_0, .http1_1] {
                XCTAssertEqual(HTTPRequest.wantsClose(headers, version: version), reference(values, version), "\(values) \(version)")
                XCTAssertEqual(parsedWantsClose(headers, version: version), reference(values, version), "parsed: \(values) \(version)")
            }
        }
    }

    func testOtherHeadersOfTheSameLengthAreNotRead() {
        let headers = HTTPHeaders([("Host", "a"), ("Connectio", "close"), ("Connections", "close"), ("Xonnection", "close")])
        XCTAssertFalse(HTTPRequest.wantsClose(headers, version: .http1_1))
        XCTAssertTrue(HTTPRequest.wantsClose(headers, version: .http1_0))
        XCTAssertEqual(parsedWantsClose(headers, version: .http1_1), false)
        XCTAssertEqual(parsedWantsClose(headers, version: .http1_0), true)
    }

    /// What the parser reads from the same fields sent as a request head.
    private func parsedWantsClose(_ headers: HTTPHeaders, version: HTTPVersion) -> Bool? {
        var text = "GET / HTTP/1.\(version.minor)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        let bytes = Array((text + "\r\n").utf8)
        let result = bytes.withUnsafeBufferPointer { RequestParser.parseHead($0, limits: HTTPLimits()) }
        guard case .complete(let head, _) = result else {
            XCTFail("\(text) did not parse: \(result)")
            return nil
        }
        return head.wantsClose
    }
}
