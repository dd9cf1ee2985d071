import Foundation
import HTTP
import TestSupport
import XCTest
@testable import App

/// The real binary: `photoscroll users …` on the data folder of a running private server, the
/// setup link in its log, and sessions, cookies and private tiles over real sockets.
final class AccessLiveTests: XCTestCase {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// `photoscroll users …` with `input` on standard input.
    func users(_ arguments: [String], input: String = "", data: String) throws -> Run {
        let process = Process()
        process.executableURL = try CommentDurabilityTests.photoscrollBinary()
        process.arguments = ["users"] + arguments + ["--data", data]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PHOTOSCROLL_") }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                   errors: String(decoding: errors, as: UTF8.self))
    }

    func testTheUsersCommandAndTheSetupLinkOnARunningPrivateServer() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("access-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos"), data = directory.appendingPathComponent("data").path
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try ReplicaCluster.makePhoto(at: photos.appendingPathComponent("one.jpg").path, width: 600, height: 400)

        // With no owner, the log's first lines hold a setup link.
        let server = try ServerProcess(name: "private", arguments: ["--data", data, "--photos", photos.path],
                                       environment: ["PHOTOSCROLL_ACCESS": "private", "PHOTOSCROLL_ACCESS_CACHE_SECONDS": "0"],
                                       directory: directory)
        defer { server.stop() }
        var setupLine: String?
        XCTAssertTrue(eventually { setupLine = ServerProcess.tail(server.logPath, lines: 5).split(separator: "\n").first { $0.contains("/setup?token=") }.map(String.init); return setupLine != nil },
                      server.logTail)
        let token = try XCTUnwrap(setupLine?.split(separator: "=").last.map(String.init))
        XCTAssertEqual(try server.request("/photos").status, 401)

        // A password under 10 characters is refused, saying why; then the owner is added while the server runs.
        let short = try users(["add", "ana", "--owner"], input: "too short\n", data: data)
        XCTAssertEqual(short.status, 1)
        XCTAssertTrue(short.errors.contains("at least 10 characters"), short.errors)
        let added = try users(["add", "ana", "--owner"], input: "correct horse\n", data: data)
        XCTAssertEqual(added.status, 0, added.errors)
        XCTAssertEqual(added.output, "added ana (owner)\n")
        XCTAssertEqual(try users(["add", "ben"], input: "battery staple\n", data: data).status, 0)
        XCTAssertEqual(try users(["add", "ben"], input: "battery staple\n", data: data).status, 1, "a name is taken once")
        let list = try users(["list"], data: data)
        XCTAssertEqual(list.output.split(separator: "\n").map { $0.split(separator: "\t").prefix(2).joined(separator: " ") },
                       ["ana owner", "ben member"])
        // An owner exists: the setup link no longer makes one.
        let setup = try server.request("/setup", method: .POST, headers: ["Content-Type": "application/json"],
                                       body: Array("{\"token\":\"\(token)\",\"username\":\"eve\",\"password\":\"eve's long password\"}".utf8))
        XCTAssertEqual(setup.status, 409, setup.text)

        // Signed in over the wire: the cookie, the private tile, the session ended by `users passwd`.
        let signIn = try server.request("/session", method: .POST, headers: ["Content-Type": "application/json"],
                                        body: Array(#"{"username":"ben","password":"battery staple"}"#.utf8))
        XCTAssertEqual(signIn.status, 204, signIn.text)
        let setCookie = try XCTUnwrap(signIn.headers["Set-Cookie"])
        XCTAssertTrue(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Path=/"), setCookie)
        let cookie = String(setCookie.split(separator: ";")[0])
        // The photo is listed by the scan that starts with the server: wait for it, not for a time.
        var answer: HTTPClientResponse?
        XCTAssertTrue(try eventually(timeout: 60) {
            answer = try server.request("/photos/1", headers: ["Cookie": cookie])
            return answer?.status != 404
        }, "photo 1 was never listed\n\(server.logTail)")
        let record = try XCTUnwrap(answer)
        XCTAssertEqual(record.status, 200, record.text)
        let version = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(record.body)) as? [String: Any])?["version"] as? String)
        for _ in 0..<2 {
            let tile = try server.request("/photos/1/tiles/0/0/0.jpg?v=\(version)", headers: ["Cookie": cookie])
            XCTAssertEqual(tile.status, 200)
            XCTAssertEqual(tile.headers["Cache-Control"], "private, max-age=31536000, immutable")
        }
        XCTAssertEqual(try server.request("/photos/1/tiles/0/0/0.jpg?v=\(version)").status, 401)
        let changed = try users(["passwd", "ben"], input: "a new long password\n", data: data)
        XCTAssertEqual(changed.status, 0, changed.errors)
        XCTAssertEqual(try server.request("/photos/1", headers: ["Cookie": cookie]).status, 401, "every session of ben ended")
        XCTAssertEqual(try users(["remove", "ben"], data: data).status, 0)
        XCTAssertEqual(try users(["remove", "ben"], data: data).status, 1)
        XCTAssertEqual(try users(["list"], data: data).output.split(separator: "\n").count, 1)
    }

    func testUsersCommandLines() throws {
        func parse(_ line: String) throws -> UsersCommand? {
            guard case .run(let command) = try PhotoScrollCommand.parse(line.split(separator: " ").map(String.init)) else { return nil }
            return command as? UsersCommand
        }
        XCTAssertEqual(try parse("users add ana --owner")?.action, .add(name: "ana", owner: true))
        XCTAssertEqual(try parse("users add ben --data d")?.action, .add(name: "ben", owner: false))
        XCTAssertEqual(try parse("users add ben --data d")?.configuration.flags, ["data": "d"])
        XCTAssertEqual(try parse("users passwd ana")?.action, .passwd(name: "ana"))
        XCTAssertEqual(try parse("users remove ana --database postgres://x@h/db")?.action, .remove(name: "ana"))
        XCTAssertEqual(try parse("users list")?.action, .list)
        for wrong in ["users", "users add", "users list ana", "users passwd ana --owner", "users frob ana", "users add ana --owner=yes"] {
            XCTAssertThrowsError(try parse(wrong), wrong)
        }
    }
}
