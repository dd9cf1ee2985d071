import Dispatch
import Foundation
import HTTP
import XCTest
@testable import App
import TestSupport

/// The real binary as a container runs it: environment-only settings, JSON logs, the health
/// subcommand against it, and SIGTERM ending in exit 0.
final class OperationsProcessTests: XCTestCase {
    private func binary() throws -> URL { try CommentDurabilityTests.photoscrollBinary() }

    /// The server as a container starts it, in a fresh folder: `serve` with no flags, its settings
    /// from the environment only (`extra` over the folder's own); the folder goes with the test.
    private func serve(_ extra: [String: String]) throws -> (server: ServerProcess, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoscroll-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        var environment = ["PATH": "/usr/bin:/bin", "PHOTOSCROLL_HOST": "127.0.0.1", "PHOTOSCROLL_PORT": "0",
                           "PHOTOSCROLL_PHOTOS": folder.appendingPathComponent("photos").path,
                           "PHOTOSCROLL_DATA": folder.appendingPathComponent("data").path,
                           "PHOTOSCROLL_RESCAN_SECONDS": "0", "PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS": "5"]
        environment.merge(extra) { $1 }
        let server = try ServerProcess(name: "container", command: ["serve"], exactEnvironment: environment, directory: folder, timeout: 30)
        return (server, folder)
    }

    func testTheBinaryServesProbesLogsJSONAndStopsCleanlyOnSIGTERM() throws {
        let (child, _) = try serve(["PHOTOSCROLL_LOG_FORMAT": "json"])
        let base = "http://127.0.0.1:\(child.port)"

        let health = try HTTPClient.get(url: base + "/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(String(decoding: health.body, as: UTF8.self), #"{"status":"ok"}"#)
        XCTAssertTrue(try eventually(timeout: 60) { try HTTPClient.get(url: base + "/readyz").status == 200 }, "the empty catalog never loaded")
        let metrics = try HTTPClient.get(url: base + "/metrics")
        XCTAssertEqual(metrics.headers["Content-Type"], OperationsRoutes.metricsContentType)
        try PrometheusText(String(decoding: metrics.body, as: UTF8.self)).validate()

        // The image's HEALTHCHECK: the same binary, another process.
        let probe = Process()
        probe.executableURL = try binary()
        probe.arguments = ["health", "--url", base, "--timeout", "5"]
        let probeOutput = Pipe()
        probe.standardOutput = probeOutput
        try probe.run()
        probe.waitUntilExit()
        XCTAssertEqual(probe.terminationStatus, 0)
        XCTAssertTrue(String(decoding: probeOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).hasPrefix("healthy: "))

        let status = child.exitStatus(after: SIGTERM, within: 45), log = child.log
        XCTAssertEqual(status, 0, "SIGTERM ends the server with exit 0; log:\n\(log)")
        let records = log.split(separator: "\n").compactMap { line -> [String: String]? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
            XCTAssertNotNil(object, "not a JSON object of strings: \(line)")
            return object
        }
        XCTAssertFalse(records.isEmpty)
        let timestamps = ISO8601DateFormatter()
        timestamps.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for record in records {
            XCTAssertNotNil(timestamps.date(from: record["time"] ?? ""), "time is RFC 3339 with a zone: \(record["time"] ?? "none")")
            XCTAssertNotNil(record["level"])
            XCTAssertNotNil(record["message"])
        }
        let serving = records.first { $0["message"] == "serving" }
        XCTAssertEqual(serving?["url"], base, "the start-up line says where to go")
        XCTAssertEqual(serving?["photos"], "0")
        XCTAssertNotNil(serving?["data"])
        XCTAssertTrue(records.contains { $0["path"] == "/healthz" && $0["status"] == "200" }, "one access log line per request")
        XCTAssertEqual(records.last?["message"], "stopped")
    }

    func testOpenLiveCommentStreamsDoNotHoldUpSIGTERM() throws {
        // A grace of a minute: a server that waited it out for the stream would still be running
        // when `stop` gives up at 45 s, however slow a loaded machine makes the rest of the shutdown.
        let (child, folder) = try serve(["PHOTOSCROLL_RESCAN_SECONDS": "1", "PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS": "60"])
        // One small photo, written with the vips command line, found by the next rescan.
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
        vips.arguments = ["gaussnoise", folder.appendingPathComponent("photos/noise.jpg").path, "300", "200"]
        try vips.run()
        vips.waitUntilExit()
        XCTAssertEqual(vips.terminationStatus, 0)
        let base = "http://127.0.0.1:\(child.port)"
        let found = eventually(timeout: 60) { (try? HTTPClient.get(url: base + "/photos/1"))?.status == 200 }
        XCTAssertTrue(found, "the photo never appeared")

        // Every open photo page holds a live comment stream; SIGTERM must not wait out the grace for it.
        let stream = try HTTPClientConnection(host: "127.0.0.1", port: child.port, timeoutSeconds: 30)
        defer { stream.close() }
        try stream.send("GET /photos/1/comments/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        XCTAssertEqual(try stream.readResponseHead().status, 200)
        let status = child.exitStatus(after: SIGTERM, within: 45), log = child.log
        XCTAssertEqual(status, 0, "ended by itself, without waiting out the grace for the open stream; log:\n\(log)")
    }

    func testTextLogsAreForPeople() throws {
        let (child, _) = try serve(["PHOTOSCROLL_LOG_FORMAT": "text"])
        XCTAssertEqual(try HTTPClient.get(url: "http://127.0.0.1:\(child.port)/healthz").status, 200)
        let status = child.exitStatus(after: SIGINT, within: 45), log = child.log
        XCTAssertEqual(status, 0, log)
        let lines = log.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains(" info ") && $0.contains("GET /healthz 200") }, log)
        XCTAssertFalse(lines.contains { $0.hasPrefix("{") }, "text format writes no JSON")
        XCTAssertTrue(lines.last?.hasSuffix("stopped") ?? false, log)
    }

    func testAConfigurationMistakeInTheEnvironmentStopsTheStartWithItsName() throws {
        // No subcommand: `serve` is the default.
        let (status, log) = try ServerProcess.refusedStart(command: [], exactEnvironment: ["PHOTOSCROLL_PORT": "eighty",
                                                                                            "PHOTOSCROLL_DATA": NSTemporaryDirectory()],
                                                           directory: FileManager.default.temporaryDirectory)
        XCTAssertEqual(status, 78)
        XCTAssertTrue(log.contains("PHOTOSCROLL_PORT"), log)
    }
}
