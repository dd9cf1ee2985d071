import XCTest
@testable import HTTP

/// The fields the parser notes are the ones the headers hold, in any spelling, and a request
/// whose headers are replaced notes them again: answers are shaped by what the request says.
final class NotedFieldsTests: XCTestCase {
    static let shaping: [(String, NotedFields)] = [
        ("Range", .range), ("If-Range", .ifRange), ("If-None-Match", .ifNoneMatch),
        ("If-Modified-Since", .ifModifiedSince), ("Accept-Encoding", .acceptEncoding), ("Connection", .connection),
        // Credentials: an access check of a request with none looks nothing up.
        ("Cookie", .cookie), ("Authorization", .authorization),
    ]

    func parsed(_ fields: [(String, String)]) throws -> RequestHead {
        let text = "GET /x HTTP/1.1\r\nHost: a\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        let result = Array(text.utf8).withUnsafeBufferPointer { RequestParser.parseHead($0, limits: HTTPLimits()) }
        guard case .complete(let head, _) = result else {
            XCTFail("\(text.debugDescription) did not parse")
            throw CancellationError()
        }
        return head
    }

    func testEachFieldIsNotedInAnySpelling() throws {
        for (name, flag) in Self.shaping {
            for spelling in [name, name.lowercased(), name.uppercased()] {
                let head = try parsed([(spelling, "1")])
                XCTAssertEqual(head.noted, flag, spelling)
                XCTAssertEqual(NotedFields(head.headers), flag, spelling)
            }
        }
    }

    func testOtherFieldsOfTheSameLengthOrLetterAreNotNoted() throws {
        // Same lengths as the noted names, or the same first letter: none of them shapes an answer.
        let others = [("Rangy", "1"), ("Referer", "x"), ("If-Rangz", "1"), ("Content-Type", "x"), ("Connectiom", "x"),
                      ("Authorizatiom", "x"), ("If-None-Matcx", "1"), ("Accept-Language", "en"), ("If-Modified-Sincx", "1"),
                      ("Accept", "*/*"), ("Cookiz", "a=b"), ("Content", "x"), ("Accept-Charset", "x")]
        let head = try parsed(others)
        XCTAssertEqual(head.noted, [])
        XCTAssertEqual(NotedFields(head.headers), [])
    }

    func testAllTogether() throws {
        let head = try parsed(Self.shaping.map { ($0.0, "1") })
        XCTAssertEqual(head.noted, NotedFields(Self.shaping.map(\.1)))
    }

    func testReplacedHeadersAreNotedAgain() {
        var request = HTTPRequest(method: .GET, target: "/x", headers: ["If-None-Match": "\"a\""])
        XCTAssertTrue(request.hasIfNoneMatch)
        request.headers.remove("if-none-match")
        XCTAssertFalse(request.hasIfNoneMatch)
        request.headers.add("IF-NONE-MATCH", "\"b\"")
        XCTAssertTrue(request.hasIfNoneMatch)
        XCTAssertTrue(request.noted.isConditional)
        request.headers = ["Connection": "close"]
        XCTAssertEqual(request.noted, .connection)
        XCTAssertTrue(request.wantsClose)
    }

    func testACopyKeepsItsOwnNotes() {
        let original = HTTPRequest(method: .GET, target: "/x", headers: ["Range": "bytes=0-1"])
        var copy = original
        copy.headers = [:]
        XCTAssertEqual(original.noted, .range)
        XCTAssertEqual(copy.noted, [])
    }
}
