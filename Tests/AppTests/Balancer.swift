import Foundation
import HTTP
import SQL
import SQLTesting
import Synchronization
import TestSupport
import XCTest

/// nginx in front of the replicas: `deploy/nginx.conf`'s server block with the replicas'
/// loopback ports for its upstream and a free loopback port to listen on.
final class Balancer: Sendable {
    let port: Int
    private let process: Process
    let prefix: URL

    init(directory: URL, upstreams: [Int]) throws {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("nginx is not installed (scripts/install-deps.sh installs nginx-light for the tests)")
        }
        prefix = directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("temp"), withIntermediateDirectories: true)
        port = try Self.freePort()
        let shipped = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("deploy/nginx.conf"), encoding: .utf8)
        let block = try Self.loopback(shipped, upstreams: upstreams, port: port)
        let temp = prefix.appendingPathComponent("temp").path
        let conf = """
            daemon off;
            master_process on;
            worker_processes 1;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/error.log warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
            \(block)
            }
            """
        let confPath = prefix.appendingPathComponent("nginx.conf").path
        try conf.write(toFile: confPath, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", prefix.path, "-c", confPath, "-e", prefix.path + "/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let up = eventually(timeout: 30) { (try? HTTPClient.request(.GET, url: "http://127.0.0.1:\(port)/healthz", timeoutSeconds: 1))?.status == 200 }
        guard up else {
            let log = (try? String(contentsOfFile: prefix.path + "/error.log", encoding: .utf8)) ?? ""
            stop()
            throw HTTPClientError("nginx did not answer on \(port): \(log.suffix(1000))")
        }
    }

    deinit { stop() }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitForEnd()
    }

    /// One request through nginx.
    func request(_ target: String, method: HTTPMethod = .GET, headers: HTTPHeaders = [:], body: [UInt8] = [],
                 timeout: Double = 10) throws -> HTTPClientResponse {
        try HTTPClient.request(method, url: "http://127.0.0.1:\(port)\(target)", headers: headers, body: body, timeoutSeconds: timeout)
    }

    /// The shipped server block with loopback addresses: each `server replica-…:8080` line of the
    /// upstream becomes one of `upstreams`, and `listen 8080` the given port on 127.0.0.1.
    static func loopback(_ shipped: String, upstreams: [Int], port: Int) throws -> String {
        var lines: [String] = []
        var replaced = 0
        for line in shipped.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("server replica-") {
                guard replaced < upstreams.count else { continue }
                let options = trimmed.split(separator: " ").dropFirst(2).joined(separator: " ")
                lines.append("        server 127.0.0.1:\(upstreams[replaced]) \(options)")
                replaced += 1
            } else if trimmed == "listen 8080;" {
                lines.append("        listen 127.0.0.1:\(port);")
            } else {
                lines.append(String(line))
            }
        }
        guard replaced == upstreams.count else {
            throw HTTPClientError("deploy/nginx.conf has \(replaced) replica servers, the test runs \(upstreams.count)")
        }
        return lines.joined(separator: "\n")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw HTTPClientError("no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
