import Foundation
import Observability
import XCTest
@testable import HTTP

final class StaticFilesTests: XCTestCase {
    var root = ""
    var outside = ""

    override func setUpWithError() throws {
        let base = NSTemporaryDirectory() + "static-\(UUID().uuidString)"
        root = base + "/public"
        outside = base + "/secret"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/js", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "<!doctype html><title>PhotoScroll</title>".write(toFile: root + "/index.html", atomically: true, encoding: .utf8)
        try String(repeating: "export const photos = [];\n", count: 200).write(toFile: root + "/js/app.js", atomically: true, encoding: .utf8)
        try "body{}".write(toFile: root + "/style.css", atomically: true, encoding: .utf8)
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) }).write(to: URL(fileURLWithPath: root + "/big.webp"))
        try "top secret".write(toFile: outside + "/passwd", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root + "/escape", withDestinationPath: outside)
        try fm.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: outside + "/passwd")
        try "hidden".write(toFile: root + "/.env", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent)
    }

    /// Times how long a resolution is remembered: moved by the tests, never slept through.
    let clock = ManualClock()

    func makeServer() throws -> LiveServer {
        let files = StaticFiles(root: root, clock: clock)
        return try LiveServer { router in
            router.get("/api", execution: .inline) { _ in HTTPResponse() }
            files.register(on: &router)
        }
    }

    func testFilesTypesAndValidators() throws {
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        func get(_ path: String, _ extra: String = "") throws -> HTTPClientResponse {
            try c.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\(extra)\r\n")
            return try c.readResponse()
        }
        let index = try get("/")
        XCTAssertEqual(index.status, 200)
        XCTAssertEqual(index.headers["Content-Type"], "text/html; charset=utf-8")
        XCTAssertEqual(index.headers["Cache-Control"], "no-cache")
        XCTAssertTrue(index.text.contains("PhotoScroll"))
        let etag = try XCTUnwrap(index.headers["ETag"])
        XCTAssertTrue(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        XCTAssertEqual(try get("/index.html").body, index.body)
        XCTAssertEqual(try get("/", "If-None-Match: \(etag)\r\n").status, 304)
        XCTAssertEqual(try get("/style.css").headers["Content-Type"], "text/css; charset=utf-8")

        let script = try get("/js/app.js", "Accept-Encoding: gzip\r\n")
        XCTAssertEqual(script.headers["Content-Type"], "text/javascript; charset=utf-8")
        XCTAssertEqual(script.headers["Content-Encoding"], "gzip")
        let original = try Data(contentsOf: URL(fileURLWithPath: root + "/js/app.js"))
        XCTAssertEqual(Gzip.decompress(script.body), Array(original))
        // Served from the cache the second time: the same bytes and the same validator.
        let again = try get("/js/app.js", "Accept-Encoding: gzip\r\n")
        XCTAssertEqual(again.body, script.body)
        XCTAssertEqual(try get("/js/app.js", "Accept-Encoding: gzip\r\nIf-None-Match: \(again.headers["ETag"]!)\r\n").status, 304)

        let big = try get("/big.webp", "Range: bytes=1000-1999\r\n")
        XCTAssertEqual(big.status, 206)
        XCTAssertEqual(big.headers["Content-Type"], "image/webp")
        XCTAssertEqual(big.body, (1000..<2000).map { UInt8(truncatingIfNeeded: $0) })
        let whole = try get("/big.webp")
        XCTAssertEqual(whole.body.count, 300_000)
        XCTAssertEqual(try get("/big.webp", "Range: bytes=300000-\r\n").status, 416)
    }

    func testChangedFileIsNotServedStale() throws {
        let live = try makeServer()
        defer { live.stop() }
        let first = try HTTPClient.get(url: live.url("/style.css"))
        // Another size and another inode (written aside, renamed over): no wait for the mtime to move.
        try "body{color:red}".write(toFile: root + "/style.css", atomically: true, encoding: .utf8)
        let second = try HTTPClient.get(url: live.url("/style.css"))
        XCTAssertEqual(String(decoding: second.body, as: UTF8.self), "body{color:red}")
        XCTAssertNotEqual(first.headers["ETag"], second.headers["ETag"])
    }

    /// Cached files are found by inode, then checked by path: two names of one file take turns in
    /// one entry, and when one name is given a new file each name serves its own bytes.
    func testHardLinksAreServedByTheirOwnPath() throws {
        try "first name".write(toFile: root + "/a.txt", atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(atPath: root + "/a.txt", toPath: root + "/b.txt")
        let live = try makeServer()
        defer { live.stop() }
        let c = try live.connect()
        for _ in 0..<3 {
            for name in ["a.txt", "b.txt"] {
                try c.send("GET /\(name) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try c.readResponse()
                XCTAssertEqual(response.status, 200, name)
                XCTAssertEqual(response.text, "first name", name)
            }
        }
        // One name's file replaced: the other still names the old one.
        try FileManager.default.removeItem(atPath: root + "/b.txt")
        try "second file".write(toFile: root + "/b.txt", atomically: false, encoding: .utf8)
        for (name, text) in [("a.txt", "first name"), ("b.txt", "second file"), ("a.txt", "first name"), ("b.txt", "second file")] {
            try c.send("GET /\(name) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try c.readResponse().text, text, name)
        }
    }

    func testTraversalIsRefused() throws {
        let live = try makeServer()
        defer { live.stop() }
        let attempts = ["/../secret/passwd", "/js/../../secret/passwd", "/%2e%2e/secret/passwd", "/%2E%2E/%2e%2e/secret/passwd",
                        "/js%2f..%2f..%2fsecret%2fpasswd", "/..%5csecret%5cpasswd", "/index.html%00.css", "/escape/passwd",
                        "/leak.txt", "/.env", "/js/", "/nothing-here.js"]
        for path in attempts {
            let c = try live.connect()
            try c.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try c.readResponse()
            XCTAssertTrue([400, 404].contains(response.status), "\(path) → \(response.status)")
            XCTAssertEqual(response.headers["Content-Type"], "application/problem+json", path)
            XCTAssertFalse(response.text.contains("top secret"), path)
        }
    }

    /// A file, or a folder above it, replaced by a symlink out of the root after it was served
    /// (and while its resolution is remembered) is refused on every later request, never followed.
    func testASymlinkSwappedInAfterTheFirstRequestIsNotFollowed() throws {
        let fm = FileManager.default
        try "a 300 KB secret, too big for the cache: ".appending(String(repeating: "s", count: 300_000))
            .write(toFile: outside + "/big-secret.bin", atomically: true, encoding: .utf8)
        try fm.createDirectory(atPath: outside + "/js", withIntermediateDirectories: true)
        try "top secret".write(toFile: outside + "/js/app.js", atomically: true, encoding: .utf8)
        let live = try makeServer()
        defer { live.stop() }
        func get(_ path: String) throws -> HTTPClientResponse {
            let c = try live.connect()
            try c.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            return try c.readResponse()
        }
        XCTAssertEqual(try get("/style.css").status, 200)
        XCTAssertEqual(try get("/big.webp").status, 200)
        XCTAssertEqual(try get("/js/app.js").status, 200)

        // The files themselves become symlinks to a secret; a folder becomes a symlink out.
        try fm.removeItem(atPath: root + "/style.css")
        try fm.createSymbolicLink(atPath: root + "/style.css", withDestinationPath: outside + "/passwd")
        try fm.removeItem(atPath: root + "/big.webp")
        try fm.createSymbolicLink(atPath: root + "/big.webp", withDestinationPath: outside + "/big-secret.bin")
        try fm.removeItem(atPath: root + "/js")
        try fm.createSymbolicLink(atPath: root + "/js", withDestinationPath: outside + "/js")
        for _ in 0..<3 {
            for path in ["/style.css", "/big.webp", "/js/app.js"] {
                let response = try get(path)
                XCTAssertEqual(response.status, 404, path)
                XCTAssertFalse(response.text.contains("secret"), path)
            }
        }
        // After the remembered resolution expires the answer is the same.
        clock.advance(by: StaticPathResolver.lifetimeSeconds + 0.1)
        for path in ["/style.css", "/big.webp", "/js/app.js"] { XCTAssertEqual(try get(path).status, 404, path) }
    }

    /// Opening beneath the root refuses a symlink at any depth, and anything not a regular file.
    func testOpeningBeneathTheRootFollowsNoSymlink() throws {
        let real = try XCTUnwrap(StaticPath.realPath(root))
        XCTAssertNotNil(OpenFile(beneath: real, path: real + "/js/app.js"))
        XCTAssertNil(OpenFile(beneath: real, path: real + "/leak.txt"))
        XCTAssertNil(OpenFile(beneath: real, path: real + "/escape/passwd"))
        XCTAssertNil(OpenFile(beneath: real, path: real + "/js"))
        XCTAssertNil(OpenFile(beneath: real, path: real + "/js/../index.html"))
        XCTAssertNil(OpenFile(beneath: real, path: outside + "/passwd"))
        mkfifo(real + "/pipe", 0o644)
        XCTAssertNil(OpenFile(beneath: real, path: real + "/pipe"), "a FIFO neither blocks nor is served")
    }

    func testContentTypes() {
        XCTAssertEqual(MediaType.forPath("a.mjs"), "text/javascript; charset=utf-8")
        XCTAssertEqual(MediaType.forPath("a.JPG"), "image/jpeg")
        XCTAssertEqual(MediaType.forPath("font.woff2"), "font/woff2")
        XCTAssertEqual(MediaType.forPath("app.js.map"), "application/json; charset=utf-8")
        XCTAssertEqual(MediaType.forPath("icon.svg"), "image/svg+xml")
        XCTAssertEqual(MediaType.forPath("favicon.ico"), "image/x-icon")
        XCTAssertEqual(MediaType.forPath("README"), "application/octet-stream")
        XCTAssertTrue(MediaType.isCompressible("application/problem+json"))
        XCTAssertFalse(MediaType.isCompressible("image/jpeg"))
    }
}
