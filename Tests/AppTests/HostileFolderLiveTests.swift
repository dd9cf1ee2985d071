import Foundation
import Glibc
import HTTP
import Imaging
import TestSupport
import XCTest

/// The photos folder as a boundary, against the real binary over a socket: a link to a file
/// outside it is never listed nor served, and a hostile folder (links to /, loops, FIFOs,
/// devices, long names) neither keeps the server from becoming ready nor brings it down.
final class HostileFolderLiveTests: XCTestCase {
    private func makeRoot() throws -> URL {
        let root = URL(fileURLWithPath: NSTemporaryDirectory() + "hostile-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("photos/trips"), withIntermediateDirectories: true)
        addTeardownBlock { _ = Glibc.system("rm -rf '\(root.path)'") }
        return root
    }

    private func link(_ path: URL, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: target)
    }

    /// The server's photos, by title, once /readyz says ready (within `seconds`: a folder that
    /// held up the start would keep it from ever being ready).
    private func readyListing(_ server: ServerProcess, within seconds: Double = 60) throws -> [String: Int] {
        XCTAssertTrue(eventually(timeout: seconds) { (try? server.request("/readyz", timeout: 5).status) == 200 },
                      "not ready within \(seconds) s\n\(server.logTail)")
        let body = try server.request("/photos?limit=1000").body
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let photos = try XCTUnwrap(object["photos"] as? [[String: Any]])
        var byPath: [String: Int] = [:]
        for photo in photos { byPath[photo["title"] as? String ?? "?"] = photo["id"] as? Int }
        return byPath
    }

    func testAFileBehindALinkOutOfTheFolderIsNeitherListedNorServed() throws {
        let root = try makeRoot()
        let photos = root.appendingPathComponent("photos")
        try DemoImage.write(to: photos.appendingPathComponent("a.jpg").path, width: 120, height: 80, seed: 1)
        try DemoImage.write(to: photos.appendingPathComponent("trips/b.jpg").path, width: 80, height: 120, seed: 2)
        let secret = Array("root:$6$not-for-you:19000:0:99999:7:::\n".utf8)
        FileManager.default.createFile(atPath: root.appendingPathComponent("shadow").path, contents: Data(secret))
        try link(photos.appendingPathComponent("shadow.jpg"), to: root.appendingPathComponent("shadow").path)
        try link(photos.appendingPathComponent("etc-shadow.jpg"), to: "/etc/shadow")
        try link(photos.appendingPathComponent("trips/up.jpg"), to: "../../shadow")

        let server = try ServerProcess(name: "linked-out", arguments: ["--photos", photos.path, "--data", root.appendingPathComponent("data").path],
                                       environment: ["PHOTOSCROLL_RESCAN_SECONDS": "0"], directory: root)
        defer { server.stop() }
        let listed = try readyListing(server)
        XCTAssertEqual(Set(listed.keys), ["a", "b"], server.logTail)
        for id in 1...6 {
            let answer = try server.request("/photos/\(id)/original")
            XCTAssertNotEqual(answer.body, secret, "photo \(id) served the file behind the link")
            if !listed.values.contains(id) { XCTAssertEqual(answer.status, 404, "photo \(id)") }
        }
        XCTAssertTrue(try String(contentsOfFile: server.logPath, encoding: .utf8).contains("links leading outside the photos folder"))
    }

    func testAHostileFolderStartsReadyInTenSecondsThreeTimesInARow() throws {
        let root = try makeRoot()
        let photos = root.appendingPathComponent("photos")
        try DemoImage.write(to: photos.appendingPathComponent("a.jpg").path, width: 120, height: 80, seed: 1)
        try DemoImage.write(to: photos.appendingPathComponent("trips/b.jpg").path, width: 80, height: 120, seed: 2)
        let long = photos.appendingPathComponent(String(repeating: "x", count: 255))
        try FileManager.default.createDirectory(at: long, withIntermediateDirectories: true)
        try DemoImage.write(to: long.appendingPathComponent("c.jpg").path, width: 100, height: 100, seed: 3)
        try link(photos.appendingPathComponent("everything"), to: "/")
        try link(photos.appendingPathComponent("trips/root.jpg"), to: "/")
        try link(photos.appendingPathComponent("loop"), to: ".")
        try link(photos.appendingPathComponent("trips/parent"), to: "..")
        try link(photos.appendingPathComponent("ping.jpg"), to: "pong.jpg")
        try link(photos.appendingPathComponent("pong.jpg"), to: "ping.jpg")
        XCTAssertEqual(mkfifo(photos.appendingPathComponent("fifo.jpg").path, 0o644), 0)
        _ = mknod(photos.appendingPathComponent("null.jpg").path, S_IFCHR | 0o644, dev_t((1 << 8) | 3))  // root only

        for start in 1...3 {
            let server = try ServerProcess(name: "hostile-\(start)",
                                           arguments: ["--photos", photos.path, "--data", root.appendingPathComponent("data").path],
                                           environment: ["PHOTOSCROLL_RESCAN_SECONDS": "0"], directory: root)
            let listed = try readyListing(server)
            XCTAssertEqual(Set(listed.keys), ["a", "b", "c"], "start \(start)\n\(server.logTail)")
            XCTAssertEqual(try server.request("/healthz").status, 200)
            XCTAssertTrue(server.isRunning, "start \(start)")
            server.stop()
            XCTAssertEqual(server.process.terminationReason, .exit, "start \(start) ended by a signal\n\(server.logTail)")
        }
    }
}
