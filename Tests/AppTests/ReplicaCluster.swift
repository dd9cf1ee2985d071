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
