import Foundation
import HTTP
import Synchronization
import TestSupport
import XCTest

/// A `photoscroll serve` child process on a free loopback port, its log kept in a file.
final class ServerProcess: Sendable {
    let process: Process
    let port: Int
    let name: String
    /// stderr (the log) of the process.
    let logPath: String

    /// Starts `photoscroll serve --port 0 <arguments>` in `directory` (no config.json there: defaults,
    /// then `environment`, then the flags) and waits for its `listening on` line.
    convenience init(name: String, arguments: [String], environment: [String: String], directory: URL, timeout: Double = 60) throws {
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PHOTOSCROLL_") && $0.key != "PORT" }
        inherited.merge(environment) { _, new in new }
        try self.init(name: name, command: ["serve", "--port", "0"] + arguments, exactEnvironment: inherited, directory: directory,
                      timeout: timeout)
    }

    /// Starts `photoscroll <command>` in `directory` with `exactEnvironment` and nothing else (as a
    /// container runs it: settings from the environment only), and waits for its `listening on` line.
    init(name: String, command: [String], exactEnvironment: [String: String], directory: URL, timeout: Double = 60) throws {
        self.name = name
        let process = Process()
        process.executableURL = try CommentDurabilityTests.photoscrollBinary()
        process.arguments = command
        process.currentDirectoryURL = directory
        process.environment = exactEnvironment
        logPath = directory.appendingPathComponent("\(name).log").path
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try process.run()
        self.process = process
        let line: String
        do {
            line = try Self.firstLine(of: output.fileHandleForReading, timeout: timeout)
        } catch {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitForEnd()
            throw HTTPClientError("\(name) did not start: \(error)\n\(Self.tail(logPath))")
        }
        guard line.hasPrefix("listening on http://127.0.0.1:"), let port = Int(line.split(separator: ":").last ?? "") else {
            Glibc.kill(process.processIdentifier, SIGKILL)
            throw HTTPClientError("unexpected first line from \(name): \(line)\n\(Self.tail(logPath))")
        }
        self.port = port
    }

    /// Runs `photoscroll <command>` in `directory` with `exactEnvironment` and nothing else, for a
    /// start that must fail (a setting the server refuses): waits for the exit; its status and
    /// everything it wrote on stderr.
    static func refusedStart(command: [String], exactEnvironment: [String: String], directory: URL) throws -> (status: Int32, log: String) {
        let process = Process()
        process.executableURL = try CommentDurabilityTests.photoscrollBinary()
        process.arguments = command
        process.currentDirectoryURL = directory
        process.environment = exactEnvironment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitForEnd()
        return (process.terminationStatus, log)
    }

    deinit { stop(signal: SIGKILL) }

    var isRunning: Bool { process.isRunning }

    /// Sends `signal` and waits for the process to end.
    func stop(signal: Int32 = SIGTERM) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, signal)
        process.waitForEnd()
    }

    /// Sends `signal` and waits up to `seconds` for the process to end by itself: its exit status,
    /// or nil when it had not ended (it is then killed).
    func exitStatus(after signal: Int32, within seconds: Double) -> Int32? {
        Glibc.kill(process.processIdentifier, signal)
        guard eventually(timeout: seconds, { !process.isRunning }) else {
            stop(signal: SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    /// One request on its own connection.
    func request(_ target: String, method: HTTPMethod = .GET, headers: HTTPHeaders = [:], body: [UInt8] = [],
                 timeout: Double = 10) throws -> HTTPClientResponse {
        try HTTPClient.request(method, url: "http://127.0.0.1:\(port)\(target)", headers: headers, body: body, timeoutSeconds: timeout)
    }

    /// The value of one sample in `/metrics` (`name{labels}`, labels as written), or nil.
    func metric(_ sample: String) throws -> Double? {
        let text = try request("/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(sample + " ") {
            return Double(line.dropFirst(sample.count + 1))
        }
        return nil
    }

    /// The whole log.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The last lines of the log, for failure messages.
    var logTail: String { Self.tail(logPath) }

    static func tail(_ path: String, lines: Int = 30) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// The first line a child process prints on `handle`, waited for at most `timeout` seconds.
    static func firstLine(of handle: FileHandle, timeout: Double) throws -> String {
        let line = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var bytes: [UInt8] = []
            while true {
                let chunk = handle.readData(ofLength: 1)
                if chunk.isEmpty || chunk.first == UInt8(ascii: "\n") { break }
                bytes.append(contentsOf: chunk)
            }
            line.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let text = line.withLock({ $0 }) else {
            throw HTTPClientError("photoscroll printed no first line within \(timeout) s")
        }
        return text
    }
}
