import Foundation
import HTTP
import TestSupport
import XCTest
@testable import App

/// The real binary on a laptop's defaults (`access: auto` on loopback: a public library),
/// attacked as a web page whose name rebinds to 127.0.0.1 would, and as a visitor behind a proxy
/// on the same machine: nothing is read, trashed, emptied or made; the same requests naming
/// `localhost` still work.
final class RebindingLiveTests: XCTestCase {
    func testARebindingPageAndAProxiedVisitorChangeNothingOnALaptopsLibrary() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rebinding-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try ReplicaCluster.makePhoto(at: photos.appendingPathComponent("one.jpg").path, width: 600, height: 400)
        let server = try ServerProcess(name: "laptop", arguments: ["--data", directory.appendingPathComponent("data").path, "--photos", photos.path],
                                       environment: [:], directory: directory)
        defer { server.stop() }
        let here: HTTPHeaders = ["Host": "localhost:\(server.port)"]
        XCTAssertTrue(eventually { (try? server.request("/photos/1", headers: here))?.status == 200 }, server.logTail)

        // The page at http://attacker.example:PORT, its name now pointing here.
        let rebound = "attacker.example:\(server.port)"
        let page: HTTPHeaders = ["Host": rebound, "Origin": "http://" + rebound, "Content-Type": "application/json"]
        for (method, target, body) in [(HTTPMethod.GET, "/photos", ""), (.GET, "/photos/1/original", ""), (.GET, "/photos/1/tiles/0/0/0.jpg", ""),
                                       (.GET, "/photos/events", ""), (.POST, "/photos/trash", #"{"ids":[1]}"#), (.DELETE, "/trash", ""),
                                       (.POST, "/folders", #"{"title":"Rebound"}"#)] {
            let answer = try server.request(target, method: method, headers: page, body: Array(body.utf8))
            XCTAssertEqual(answer.status, 421, "\(method) \(target) naming \(rebound)")
            XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json")
            XCTAssertFalse(answer.text.contains("one.jpg"), answer.text)
        }
        XCTAssertTrue(server.logTail.contains("allowedHosts"), "the log says how to serve the name:\n\(server.logTail)")
        XCTAssertEqual(ServerProcess.tail(server.logPath, lines: 200).components(separatedBy: "attacker.example").count - 1, 1,
                       "each refused name is logged once")

        // A visitor arriving through a proxy on this machine that is not trusted: a stranger.
        let proxied: HTTPHeaders = ["Host": "localhost:\(server.port)", "X-Forwarded-For": "203.0.113.9", "Content-Type": "application/json"]
        for (method, target, body) in [(HTTPMethod.POST, "/folders", #"{"title":"Proxied"}"#), (.POST, "/photos/trash", #"{"ids":[1]}"#),
                                       (.DELETE, "/trash", ""), (.GET, "/metrics", "")] {
            let answer = try server.request(target, method: method, headers: proxied, body: Array(body.utf8))
            XCTAssertTrue([401, 403].contains(answer.status), "\(method) \(target) through a proxy: \(answer.status) \(answer.text)")
        }
        XCTAssertEqual(try server.request("/photos", headers: proxied).status, 200, "a public library is still read by anyone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: photos.appendingPathComponent("Proxied").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: photos.appendingPathComponent("Rebound").path))
        XCTAssertEqual(try server.request("/photos/1", headers: here).status, 200, "the photo is where it was, not in the trash")

        // This machine itself still manages its library, by name and by address.
        let made = try server.request("/folders", method: .POST, headers: here + [("Content-Type", "application/json")],
                                      body: Array(#"{"title":"From here"}"#.utf8))
        XCTAssertEqual(made.status, 201, made.text)
        XCTAssertEqual(try server.request("/metrics").status, 200)
    }
}
