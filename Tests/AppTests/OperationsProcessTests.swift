import Dispatch
import Foundation
import HTTP
import Synchronization
import XCTest
@testable import App
import TestSupport

/// The real binary as a container runs it: environment-only settings, JSON logs, the health
/// subcommand against it, and SIGTERM ending in exit 0.
final class OperationsProcessTests: XCTestCase {
    private func binary() throws -> URL { try CommentDurabilityTests.photoscrollBinary() }

    /// A running server in a fresh folder, with its stdout's first line read.
    private final class Child {
        let process = Process()
        let stdout = Pipe()
        let stderr = Pipe()
        let folder: URL
        private(set) var firstLine = ""

        init(binary: URL, environment extra: [String: String]) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoscroll-process-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
            process.executableURL = binary
            process.arguments = ["serve"]
            // No config.json in this folder: the defaults plus the environment, as in the image.
            process.currentDirectoryURL = folder
            var environment = ["PATH": "/usr/bin:/bin", "PHOTOSCROLL_HOST": "127.0.0.1", "PHOTOSCROLL_PORT": "0",
                               "PHOTOSCROLL_PHOTOS": folder.appendingPathComponent("photos").path,
                               "PHOTOSCROLL_DATA": folder.appendingPathComponent("data").path,
                               "PHOTOSCROLL_RESCAN_SECONDS": "0", "PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS": "5"]
            environment.merge(extra) { $1 }
            process.environment = environment
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            let line = Mutex<String?>(nil)
            let read = DispatchSemaphore(value: 0)
            let handle = stdout.fileHandleForReading
            Thread {
                var bytes: [UInt8] = []
                while let chunk = try? handle.read(upToCount: 1), let byte = chunk.first, byte != 10 { bytes.append(byte) }
                line.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
                read.signal()
            }.start()
            guard read.wait(timeout: .now() + 30) == .success, let first = line.withLock({ $0 }), !first.isEmpty else {
                process.terminate()
                throw ChildError("the server printed no first line within 30 s")
            }
            firstLine = first
        }

        var port: Int { Int(firstLine.split(separator: ":").last ?? "") ?? 0 }

        /// Sends `signal`, waits for the exit, and returns the status and everything on stderr.
        func stop(_ signal: Int32, within seconds: Double) -> (status: Int32?, log: String) {
            kill(process.processIdentifier, signal)
            eventually(timeout: seconds) { !process.isRunning }
            let exited = !process.isRunning
            if !exited {
                kill(process.processIdentifier, SIGKILL)
                process.waitForEnd()
            }
            let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try? FileManager.default.removeItem(at: folder)
            return (exited ? process.terminationStatus : nil, log)
        }
    }

    func testTheBinaryServesProbesLogsJSONAndStopsCleanlyOnSIGTERM() throws {
        let child = try Child(binary: try binary(), environment: ["PHOTOSCROLL_LOG_FORMAT": "json"])
        XCTAssertTrue(child.firstLine.hasPrefix("listening on http://127.0.0.1:"), child.firstLine)
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

        let (status, log) = child.stop(SIGTERM, within: 45)
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
        let child = try Child(binary: try binary(), environment: ["PHOTOSCROLL_RESCAN_SECONDS": "1",
                                                                  "PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS": "60"])
        // One small photo, written with the vips command line, found by the next rescan.
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
        vips.arguments = ["gaussnoise", child.folder.appendingPathComponent("photos/noise.jpg").path, "300", "200"]
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
        let (status, log) = child.stop(SIGTERM, within: 45)
        XCTAssertEqual(status, 0, "ended by itself, without waiting out the grace for the open stream; log:\n\(log)")
    }

    func testTextLogsAreForPeople() throws {
        let child = try Child(binary: try binary(), environment: ["PHOTOSCROLL_LOG_FORMAT": "text"])
        XCTAssertEqual(try HTTPClient.get(url: "http://127.0.0.1:\(child.port)/healthz").status, 200)
        let (status, log) = child.stop(SIGINT, within: 45)
        XCTAssertEqual(status, 0, log)
        let lines = log.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains(" info ") && $0.contains("GET /healthz 200") }, log)
        XCTAssertFalse(lines.contains { $0.hasPrefix("{") }, "text format writes no JSON")
        XCTAssertTrue(lines.last?.hasSuffix("stopped") ?? false, log)
    }

    func testAConfigurationMistakeInTheEnvironmentStopsTheStartWithItsName() throws {
        let process = Process()
        process.executableURL = try binary()
        process.environment = ["PHOTOSCROLL_PORT": "eighty", "PHOTOSCROLL_DATA": NSTemporaryDirectory()]
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 78)
        XCTAssertTrue(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("PHOTOSCROLL_PORT"))
    }
}

/// Why a child server could not be started or read.
private struct ChildError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
