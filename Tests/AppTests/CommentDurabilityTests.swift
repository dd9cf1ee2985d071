import Comments
import Foundation
import HTTP
import Synchronization
import XCTest
import TestSupport

/// An acknowledged comment survives the server being killed: the built `photoscroll` binary runs as a
/// child process, takes a stream of concurrent posts, is SIGKILLed in the middle, restarts on the same
/// data folder, and must still have every comment it answered 201 for.
final class CommentDurabilityTests: XCTestCase {
    private var directory: URL!
    private var children: [ServerProcess] = []

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("comments-durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        for child in children { child.stop(signal: SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    func testEveryAcknowledgedCommentSurvivesSIGKILL() throws {
        try Self.makePhoto(at: directory.appendingPathComponent("photos/kept.jpg").path)

        let first = try startServer("first")
        let photo = try waitForPhoto(port: first.port)

        // Eight keep-alive clients post as fast as they can; the server is killed while they do.
        let acknowledged = Mutex<[Int: String]>([:])
        let stop = Atomic<Bool>(false)
        let clients = DispatchGroup()
        for client in 0..<8 {
            DispatchQueue.global().async(group: clients) {
                guard let connection = try? HTTPClientConnection(port: first.port, timeoutSeconds: 5) else { return }
                defer { connection.close() }
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    let text = "client \(client) comment \(n)"
                    let body = "{\"text\":\"\(text)\"}"
                    n += 1
                    do {
                        try connection.send("POST /photos/\(photo)/comments HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                        let response = try connection.readResponse()
                        guard response.status == 201, let id = response.object["id"] as? Int else { return }
                        acknowledged.withLock { $0[id] = text }
                    } catch {
                        return // the server is gone; whatever was not answered 201 may or may not be stored
                    }
                }
            }
        }
        eventually(timeout: 30) { acknowledged.withLock({ $0.count }) >= 150 }
        first.stop(signal: SIGKILL)
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(clients.wait(timeout: .now() + 30), .success)
        let acked = acknowledged.withLock { $0 }
        XCTAssertGreaterThanOrEqual(acked.count, 150, "the clients got going before the kill")
        XCTAssertEqual(first.process.terminationReason, .uncaughtSignal, "it was killed, not shut down cleanly")

        let second = try startServer("second")
        _ = try waitForPhoto(port: second.port)
        var stored: [Int: String] = [:]
        var cursor = 0
        while true {
            let page = try HTTPClient.request(.GET, url: "http://127.0.0.1:\(second.port)/photos/\(photo)/comments?limit=200&after=\(cursor)")
            XCTAssertEqual(page.status, 200)
            let comments = page.object["comments"] as? [[String: Any]] ?? []
            for comment in comments {
                if let id = comment["id"] as? Int, let text = comment["text"] as? String { stored[id] = text }
            }
            guard let last = comments.last?["id"] as? Int else { break }
            cursor = last
        }
        let lost = acked.filter { stored[$0.key] != $0.value }
        XCTAssertEqual(lost.count, 0, "acknowledged but lost or changed: \(lost.keys.sorted().prefix(10))")
        XCTAssertLessThanOrEqual(stored.count - acked.count, 8, "at most one unanswered post per client was in flight")

        let after = try HTTPClient.request(.POST, url: "http://127.0.0.1:\(second.port)/photos/\(photo)/comments",
                                           headers: ["Content-Type": "application/json"], body: Array(#"{"text":"after the restart"}"#.utf8))
        XCTAssertEqual(after.status, 201)
        XCTAssertGreaterThan(after.object["id"] as? Int ?? 0, stored.keys.max() ?? 0, "ids keep increasing across the crash")

        let photoJSON = try HTTPClient.request(.GET, url: "http://127.0.0.1:\(second.port)/photos/\(photo)").object
        XCTAssertEqual(photoJSON["commentCount"] as? Int, stored.count + 1, "the photo's count comes from the reopened store")

        second.stop(signal: SIGTERM)
        let store = try SQLCommentStore(path: directory.appendingPathComponent("data/comments.sqlite").path)
        defer { store.close() }
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        XCTAssertEqual(store.count(photoID: photo), stored.count + 1)
    }

    // MARK: - The child process

    /// `photoscroll serve` on the test's folders (see `ServerProcess`), stopped with the test.
    private func startServer(_ name: String) throws -> ServerProcess {
        let server = try ServerProcess(name: name, arguments: ["--data", directory.appendingPathComponent("data").path,
                                                               "--photos", directory.appendingPathComponent("photos").path,
                                                               "--rescan-seconds", "0"],
                                       environment: ["PHOTOSCROLL_COMMENTS_PER_MINUTE": "0", "PHOTOSCROLL_LOG_LEVEL": "warning"],
                                       directory: directory, timeout: 30)
        children.append(server)
        return server
    }

    /// The id of the one photo, once the catalog lists it.
    private func waitForPhoto(port: Int) throws -> Int {
        var id: Int?
        eventually(timeout: 60) {
            let response = try? HTTPClient.request(.GET, url: "http://127.0.0.1:\(port)/photos")
            id = (response?.object["photos"] as? [[String: Any]])?.first?["id"] as? Int
            return id != nil
        }
        guard let id else { throw HTTPClientError("the photo never appeared in /photos") }
        return id
    }

    /// The `photoscroll` executable built alongside this test bundle, or PHOTOSCROLL_BIN's.
    static func photoscrollBinary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["PHOTOSCROLL_BIN"] { return URL(fileURLWithPath: path) }
        let bundle = Bundle.main.bundleURL
        var candidates = [bundle.appendingPathComponent("photoscroll"),
                          bundle.deletingLastPathComponent().appendingPathComponent("photoscroll")]
        for test in Bundle.allBundles where test.bundlePath.hasSuffix(".xctest") {
            candidates.append(test.bundleURL.deletingLastPathComponent().appendingPathComponent("photoscroll"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/photoscroll"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw HTTPClientError("no photoscroll binary next to the tests (looked at \(candidates.map(\.path))); run swift build first")
        }
        return found
    }

    /// A small JPEG from the vips CLI (libvips-tools, installed with the build dependencies).
    static func makePhoto(at path: String) throws {
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        vips.arguments = ["vips", "sines", path, "320", "240"]
        try vips.run()
        vips.waitUntilExit()
        guard vips.terminationStatus == 0, FileManager.default.fileExists(atPath: path) else {
            throw HTTPClientError("vips could not write \(path)")
        }
    }
}
