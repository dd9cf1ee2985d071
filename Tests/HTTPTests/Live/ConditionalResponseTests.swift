import Foundation
import XCTest
@testable import HTTP

/// HEAD, ETag/If-None-Match, If-Modified-Since, Range and gzip, applied by the server to any route.
final class ConditionalResponseTests: XCTestCase {
    static let text = Array(String(repeating: "PhotoScroll tiles and comments. ", count: 100).utf8)
    static let jpeg: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    func makeServer() throws -> LiveServer {
        try LiveServer { router in
            router.get("/doc", execution: .inline) { _ in
                HTTPResponse(contentType: "text/plain; charset=utf-8", bytes: Self.text,
                             headers: ["ETag": "\"doc1\"", "Last-Modified": "Sun, 29 Nov 2026 10:00:00 GMT"])
            }
            router.get("/tile.jpg", execution: .inline) { _ in
                HTTPResponse(contentType: "image/jpeg", bytes: Self.jpeg, headers: ["ETag": "\"t1\""])
            }
        }
    }

    func request(_ connection: HTTPClientConnection, _ method: String = "GET", _ path: String, _ extra: String = "") throws -> HTTPClientResponse {
        try connection.send("\(method) \(path) HTTP/1.1\r\nHost: x\r\n\(extra)\r\n")
        return try connection.readResponse(head: method == "HEAD")
    }

    func testHeadAnswersTheGetHeadersWithoutABody() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        let get = try request(c, "GET", "/tile.jpg")
        let head = try request(c, "HEAD", "/tile.jpg")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["Content-Length"], String(Self.jpeg.count))
        XCTAssertEqual(head.headers["ETag"], get.headers["ETag"])
        XCTAssertEqual(head.body, [])
        // The connection is still in step: no stray body bytes were sent after the HEAD.
        XCTAssertEqual(try request(c, "GET", "/tile.jpg").body, Self.jpeg)
    }

    func testIfNoneMatchAnswers304() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        for condition in ["\"t1\"", "W/\"t1\"", "\"other\", \"t1\"", "*"] {
            let response = try request(c, "GET", "/tile.jpg", "If-None-Match: \(condition)\r\n")
            XCTAssertEqual(response.status, 304, condition)
            XCTAssertEqual(response.headers["ETag"], "\"t1\"")
            XCTAssertNil(response.headers["Content-Length"])
            XCTAssertEqual(response.body, [])
        }
        XCTAssertEqual(try request(c, "GET", "/tile.jpg", "If-None-Match: \"other\"\r\n").status, 200)
    }

    func testIfModifiedSinceWhenNoIfNoneMatch() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        XCTAssertEqual(try request(c, "GET", "/doc", "If-Modified-Since: Sun, 29 Nov 2026 10:00:00 GMT\r\n").status, 304)
        XCTAssertEqual(try request(c, "GET", "/doc", "If-Modified-Since: Sun, 29 Nov 2026 09:59:59 GMT\r\n").status, 200)
        // If-None-Match wins when both are sent.
        XCTAssertEqual(try request(c, "GET", "/doc", "If-None-Match: \"x\"\r\nIf-Modified-Since: Sun, 29 Nov 2026 10:00:00 GMT\r\n").status, 200)
    }

    func testSingleRangeIs206AndOutsideIs416() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        let partial = try request(c, "GET", "/tile.jpg", "Range: bytes=10-19\r\n")
        XCTAssertEqual(partial.status, 206)
        XCTAssertEqual(partial.headers["Content-Range"], "bytes 10-19/\(Self.jpeg.count)")
        XCTAssertEqual(partial.body, Array(Self.jpeg[10..<20]))
        let suffix = try request(c, "GET", "/tile.jpg", "Range: bytes=-5\r\n")
        XCTAssertEqual(suffix.body, Array(Self.jpeg.suffix(5)))
        let outside = try request(c, "GET", "/tile.jpg", "Range: bytes=99999-\r\n")
        XCTAssertEqual(outside.status, 416)
        XCTAssertEqual(outside.headers["Content-Range"], "bytes */\(Self.jpeg.count)")
        let multi = try request(c, "GET", "/tile.jpg", "Range: bytes=0-1,5-6\r\n")
        XCTAssertEqual(multi.status, 200)
        XCTAssertEqual(multi.headers["Accept-Ranges"], "bytes")
        XCTAssertEqual(try request(c, "GET", "/tile.jpg", "Range: bytes=0-3\r\nIf-Range: \"t1\"\r\n").status, 206)
        XCTAssertEqual(try request(c, "GET", "/tile.jpg", "Range: bytes=0-3\r\nIf-Range: \"old\"\r\n").status, 200)
    }

    func testGzipForTextNeverForJPEG() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        let zipped = try request(c, "GET", "/doc", "Accept-Encoding: br, gzip\r\n")
        XCTAssertEqual(zipped.headers["Content-Encoding"], "gzip")
        XCTAssertEqual(zipped.headers["Vary"], "Accept-Encoding")
        XCTAssertLessThan(zipped.body.count, Self.text.count)
        XCTAssertEqual(Gzip.decompress(zipped.body), Self.text)
        XCTAssertEqual(zipped.headers["ETag"], "\"doc1-gzip\"")
        XCTAssertEqual(try request(c, "GET", "/doc", "Accept-Encoding: gzip\r\nIf-None-Match: \"doc1-gzip\"\r\n").status, 304)

        let plain = try request(c, "GET", "/doc", "Accept-Encoding: gzip;q=0\r\n")
        XCTAssertNil(plain.headers["Content-Encoding"])
        XCTAssertEqual(plain.headers["Vary"], "Accept-Encoding")
        XCTAssertEqual(plain.body, Self.text)

        let tile = try request(c, "GET", "/tile.jpg", "Accept-Encoding: gzip\r\n")
        XCTAssertNil(tile.headers["Content-Encoding"])
        XCTAssertNil(tile.headers["Vary"])
        XCTAssertEqual(tile.body, Self.jpeg)
    }

    /// The fields that shape an answer are noted in any spelling, for cached files as for routes:
    /// the first request reads the file from disk, the later ones answer from memory.
    func testFieldsInAnySpellingShapeACachedFilesAnswer() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("noted-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        FileManager.default.createFile(atPath: root + "/notes.txt", contents: Data(Self.text))
        let files = StaticFiles(root: root)
        let live = try LiveServer { router in files.register(on: &router) }
        defer { live.stop() }
        let c = try live.connect()
        for _ in 0..<2 {
            let plain = try request(c, "GET", "/notes.txt")
            XCTAssertEqual(plain.status, 200)
            XCTAssertNil(plain.headers["Content-Encoding"])
            XCTAssertEqual(plain.body, Self.text)
            let etag = try XCTUnwrap(plain.headers["ETag"])

            for spelling in ["accept-encoding", "ACCEPT-ENCODING", "Accept-Encoding"] {
                let zipped = try request(c, "GET", "/notes.txt", "\(spelling): gzip\r\n")
                XCTAssertEqual(zipped.headers["Content-Encoding"], "gzip", spelling)
                XCTAssertEqual(Gzip.decompress(zipped.body), Self.text, spelling)
            }
            let ranged = try request(c, "GET", "/notes.txt", "accept-encoding: gzip\r\nrange: bytes=0-9\r\n")
            XCTAssertEqual(ranged.status, 206)
            XCTAssertNil(ranged.headers["Content-Encoding"], "a range is of the file's own bytes")
            XCTAssertEqual(ranged.body, Array(Self.text[0..<10]))
            XCTAssertEqual(try request(c, "GET", "/notes.txt", "if-none-match: \(etag)\r\n").status, 304)
            XCTAssertEqual(try request(c, "GET", "/notes.txt", "IF-MODIFIED-SINCE: Sun, 01 Jan 2090 00:00:00 GMT\r\n").status, 304)
        }
    }
}
