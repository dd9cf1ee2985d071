import Foundation
import HTTP
import SQL
import SQLTesting
import Synchronization
import TestSupport
import XCTest

/// Two `photoscroll serve` replicas on one photos folder, one data folder and one PostgreSQL
/// database, behind nginx configured from `deploy/nginx.conf` with loopback addresses: the
/// deployment of docs/scale-out.md, started for one test and torn down after it.
final class ReplicaCluster {
    let directory: URL
    let postgres: PostgresCluster
    let database: PostgresURL
    private(set) var replicas: [ServerProcess] = []
    private(set) var balancer: Balancer?
    let environment: [String: String]

    var photosDirectory: URL { directory.appendingPathComponent("photos") }
    var dataDirectory: URL { directory.appendingPathComponent("data") }
    var a: ServerProcess { replicas[0] }
    var b: ServerProcess { replicas[1] }

    /// One private PostgreSQL cluster for every replica test of the process (tests stop and
    /// start it); each cluster gets a database of its own.
    static func sharedPostgres() throws -> PostgresCluster {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        return try privatePostgres.get()
    }

    private static let privatePostgres = Result { try PostgresCluster.start() }

    /// A fresh folder with `photos` in it (made by `makePhotos`), and a fresh database.
    init(environment: [String: String] = [:], makePhotos: (URL) throws -> Void) throws {
        postgres = try Self.sharedPostgres()
        if !Self.isRunning(postgres) { try postgres.startServer() }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("replicas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try makePhotos(directory.appendingPathComponent("photos"))
        database = try postgres.createDatabase()
        var environment = environment
        environment["PHOTOSCROLL_DATABASE"] = database.description
        environment["PHOTOSCROLL_TRUSTED_PROXIES"] = environment["PHOTOSCROLL_TRUSTED_PROXIES"] ?? "127.0.0.1"
        environment["PHOTOSCROLL_COMMENTS_PER_MINUTE"] = environment["PHOTOSCROLL_COMMENTS_PER_MINUTE"] ?? "0"
        environment["PHOTOSCROLL_LOG_LEVEL"] = environment["PHOTOSCROLL_LOG_LEVEL"] ?? "info"
        environment["PHOTOSCROLL_RESCAN_SECONDS"] = environment["PHOTOSCROLL_RESCAN_SECONDS"] ?? "1"
        environment["PHOTOSCROLL_PUBLIC"] = Balancer.repositoryRoot.appendingPathComponent("Public").path
        self.environment = environment
    }

    /// Starts replicas A and B (one after the other, or together) and nginx in front of them.
    func start(together: Bool = false) throws {
        let names = ["a", "b"]
        if together {
            let started = Mutex<[Int: Result<ServerProcess, Error>]>([:])
            let start = startReplica
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                let result = Result { try start(names[i]) }
                started.withLock { $0[i] = result }
            }
            let both = started.withLock { $0 }
            replicas = try (0..<2).map { try both[$0]!.get() }
        } else {
            replicas = try names.map { try startReplica($0) }
        }
        balancer = try Balancer(directory: directory, upstreams: replicas.map(\.port))
    }

    /// Starts a replica on the shared folders and database.
    var startReplica: @Sendable (_ name: String) throws -> ServerProcess {
        let (data, photos, environment, directory) = (dataDirectory, photosDirectory, self.environment, self.directory)
        return { name in try ServerProcess(name: "replica-\(name)", arguments: ["--data", data.path, "--photos", photos.path],
                                           environment: environment, directory: directory) }
    }

    /// Replaces replica `index` with a new process on the same folders (nginx keeps its old port, so
    /// it is not sent there).
    func restartReplica(_ index: Int) throws -> ServerProcess {
        replicas[index].stop(signal: SIGKILL)
        let fresh = try startReplica(["a", "b"][index] + "2")
        replicas[index] = fresh
        return fresh
    }

    /// A handle on the database, as the test's own client.
    func openDatabase() throws -> SQLDatabase {
        var options = SQLDatabaseOptions()
        options.postgres.maxConnections = 2
        options.postgres.applicationName = "test-client"
        return try SQLDatabase(.postgres(database), options: options)
    }

    /// Stops everything and deletes the folder and the database.
    func tearDown() {
        balancer?.stop()
        for replica in replicas { replica.stop(signal: SIGKILL) }
        if !Self.isRunning(postgres) { try? postgres.startServer() }
        try? postgres.dropDatabase(database)
        try? FileManager.default.removeItem(at: directory)
    }

    /// The logs of every replica, for failure messages.
    var logs: String {
        replicas.map { "--- \($0.name)\n\($0.logTail)" }.joined(separator: "\n")
    }

    static func isRunning(_ cluster: PostgresCluster) -> Bool {
        FileManager.default.fileExists(atPath: cluster.directory + "/data/postmaster.pid")
    }

    /// A JPEG of `width` × `height` written by the vips command-line tool.
    static func makePhoto(at path: String, width: Int, height: Int) throws {
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Written beside and moved in, so the scan never sees a half-written file.
        let partial = (path as NSString).deletingLastPathComponent + "/.partial-" + (path as NSString).lastPathComponent
        vips.arguments = ["vips", "sines", partial, String(width), String(height)]
        try vips.run()
        vips.waitUntilExit()
        guard vips.terminationStatus == 0 else { throw HTTPClientError("vips could not write \(path)") }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
    }

    /// `count` small JPEGs, `photo-1.jpg` …, different from each other, written by the vips command-line tool.
    static func smallPhotos(_ count: Int) -> (URL) throws -> Void {
        { folder in
            // Each of its own size, so each has a pyramid of its own (equal bytes would share one).
            for i in 1...count { try makePhoto(at: folder.appendingPathComponent("photo-\(i).jpg").path, width: 320 + i, height: 240) }
        }
    }
}

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
