import Foundation
import SQL
import Synchronization

/// A real PostgreSQL cluster for tests, from the distribution's `postgresql` package: `initdb` in
/// a temporary folder, `pg_ctl start` on a free loopback port and a private socket folder, run
/// as the `postgres` user when the tests run as root (the server refuses root).
///
/// `shared()` starts one cluster per test process on first use; `createDatabase()` gives each
/// test its own database, which also scopes advisory locks and notification channels. A test
/// that stops or restarts the server starts a private cluster with `start()` instead. Clusters
/// are stopped and deleted when the process exits, and a watchdog does the same if it dies.
public final class PostgresCluster: Sendable {
    /// The folder with `data/`, `sock/` and `log`.
    public let directory: String
    public let port: Int
    public let binDirectory: String
    private let databaseCounter = Atomic(0)
    private let admin = Mutex<SQLDatabase?>(nil)

    private static let sharedCluster = Mutex<Result<PostgresCluster, PostgresClusterError>?>(nil)
    private static let running = Mutex<[String: String]>([:])

    /// The process-wide cluster, started on first call. When the tests run as several processes
    /// (scripts/unit-test.py sets `PHOTOSCROLL_TEST_RUN_DIRECTORY`), the first process to ask
    /// starts it for all of them and the runner stops it at the end.
    public static func shared() throws -> PostgresCluster {
        try sharedCluster.withLock { cached -> Result<PostgresCluster, PostgresClusterError> in
            if let cached { return cached }
            let result: Result<PostgresCluster, PostgresClusterError>
            do {
                if let run = ProcessInfo.processInfo.environment["PHOTOSCROLL_TEST_RUN_DIRECTORY"], !run.isEmpty {
                    result = .success(try sharedAcrossProcesses(in: run))
                } else {
                    result = .success(try start())
                }
            } catch {
                result = .failure(error as? PostgresClusterError ?? PostgresClusterError("\(error)"))
            }
            cached = result
            return result
        }.get()
    }

    /// The cluster the processes of one test run share: `RUN/postgres` names it (`port directory
    /// bin`), written under a lock by the process that started it.
    private static func sharedAcrossProcesses(in run: String) throws -> PostgresCluster {
        let lock = open(run + "/postgres.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw PostgresClusterError("cannot open \(run)/postgres.lock: errno \(errno)") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw PostgresClusterError("cannot lock \(run)/postgres.lock: errno \(errno)") }
        }
        defer { flock(lock, LOCK_UN) }
        let record = run + "/postgres"
        if let text = try? String(contentsOfFile: record, encoding: .utf8) {
            let parts = text.split(separator: " ").map(String.init)
            guard parts.count == 3, let port = Int(parts[0]) else { throw PostgresClusterError("\(record) holds \(text)") }
            return PostgresCluster(directory: parts[1], port: port, binDirectory: parts[2].trimmingCharacters(in: .newlines))
        }
        let cluster = try start(stoppedAtExit: false)
        try "\(cluster.port) \(cluster.directory) \(cluster.binDirectory)\n".write(toFile: record, atomically: true, encoding: .utf8)
        return cluster
    }

    /// Why PostgreSQL tests cannot run here (the server binaries are not installed), or nil.
    public static var unavailableReason: String? {
        do {
            _ = try findBinDirectory()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A new cluster of its own (a few seconds): for tests that stop or restart the server.
    /// It is stopped and deleted when this process exits, unless `stoppedAtExit` is false (a
    /// cluster shared by the processes of a run, which the runner stops).
    public static func start(stoppedAtExit: Bool = true) throws -> PostgresCluster {
        let bin = try findBinDirectory()
        let directory = try makeDirectory()
        do {
            try runAsServerUser(bin + "/initdb", ["-D", directory + "/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
                                                   "--locale=C", "--no-sync", "--no-instructions"])
            var lastError: (any Error)?
            for _ in 0..<3 {
                let port = try freePort()
                let cluster = PostgresCluster(directory: directory, port: port, binDirectory: bin)
                do {
                    try cluster.startServer()
                    if stoppedAtExit {
                        running.withLock { $0[directory] = bin }
                        registerCleanup(directory: directory, bin: bin)
                    }
                    return cluster
                } catch {
                    lastError = error
                }
            }
            throw lastError!
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private init(directory: String, port: Int, binDirectory: String) {
        self.directory = directory
        self.port = port
        self.binDirectory = binDirectory
    }

    /// The superuser's URL for database `name` over TCP on loopback.
    public func url(database name: String = "postgres") -> PostgresURL {
        PostgresURL(user: "postgres", host: "127.0.0.1", port: port, database: name)
    }

    /// The socket folder (for URLs that connect through the socket).
    public var socketDirectory: String { directory + "/sock" }

    /// A fresh, empty database; its URL.
    public func createDatabase() throws -> PostgresURL {
        let name = "test_\(getpid())_\(databaseCounter.add(1, ordering: .relaxed).newValue)"
        try withAdmin { admin in
            // Simple protocol: CREATE DATABASE may not run inside the extended protocol's implicit transaction.
            try admin.withConnection { try $0.execute("CREATE DATABASE \(name) TEMPLATE template0 STRATEGY FILE_COPY") }
        }
        return url(database: name)
    }

    /// Drops a database made by `createDatabase`, ending its sessions first.
    public func dropDatabase(_ url: PostgresURL) throws {
        try withAdmin { admin in
            try admin.withConnection { try $0.execute("DROP DATABASE IF EXISTS \(url.database) WITH (FORCE)") }
        }
    }

    /// Ends every session on `database` (`pg_terminate_backend`), or only those whose
    /// `application_name` starts with `application`; returns how many.
    @discardableResult
    public func terminateSessions(database: String, application: String? = nil) throws -> Int {
        try withAdmin { admin in
            try admin.scalar("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = \(database) AND pid <> pg_backend_pid()
                  AND starts_with(application_name, \(application ?? ""))
                """, as: Int.self) ?? 0
        }
    }

    /// Sessions open on `database` now.
    public func sessionCount(database: String) throws -> Int {
        try withAdmin { try $0.scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = \(database)", as: Int.self) ?? 0 }
    }

    /// Stops the server (fast shutdown: sessions are ended, as in a restart).
    public func stopServer() throws {
        admin.withLock { $0?.close(); $0 = nil }
        try Self.runAsServerUser(binDirectory + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"])
    }

    /// Starts the server again on the same port.
    public func startServer() throws {
        let options = ["-p \(port)", "-k \(socketDirectory)", "-c listen_addresses=127.0.0.1", "-c fsync=off",
                       "-c synchronous_commit=off", "-c full_page_writes=off", "-c max_connections=300",
                       "-c shared_buffers=32MB"].joined(separator: " ")
        do {
            try Self.runAsServerUser(binDirectory + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log",
                                                                "-o", options, "-w", "-t", "60", "start"])
        } catch {
            let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
            throw PostgresClusterError("\(error)\n\(log.suffix(1500))")
        }
    }

    private func withAdmin<T>(_ body: (SQLDatabase) throws -> T) throws -> T {
        let database = try admin.withLock { admin -> SQLDatabase in
            if let admin { return admin }
            var options = SQLDatabaseOptions()
            options.postgres.maxConnections = 2
            options.postgres.applicationName = "test-harness"
            let opened = try SQLDatabase(.postgres(url()), options: options)
            admin = opened
            return opened
        }
        return try body(database)
    }

    // MARK: - Processes and files

    private static func findBinDirectory() throws -> String {
        if let configured = ProcessInfo.processInfo.environment["PHOTOSCROLL_TEST_POSTGRES_BIN"] {
            guard FileManager.default.isExecutableFile(atPath: configured + "/initdb") else {
                throw PostgresClusterError("PHOTOSCROLL_TEST_POSTGRES_BIN=\(configured) has no initdb")
            }
            return configured
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return "\(root)/\(version)/bin"
        }
        throw PostgresClusterError("the PostgreSQL server is not installed (no \(root)/*/bin/initdb): scripts/install-deps.sh test installs the postgresql package")
    }

    private static func makeDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "photoscroll-pg-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw PostgresClusterError("cannot make a temporary folder: errno \(errno)") }
        let directory = String(cString: made)
        guard mkdir(directory + "/sock", 0o700) == 0 else { throw PostgresClusterError("cannot make \(directory)/sock") }
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw PostgresClusterError("running as root, but there is no postgres user to run the server as (the postgresql package makes it)")
            }
            for path in [directory, directory + "/sock"] where chown(path, user.pointee.pw_uid, user.pointee.pw_gid) != 0 {
                throw PostgresClusterError("cannot give \(path) to the postgres user: errno \(errno)")
            }
        }
        return directory
    }

    /// Runs a server tool, as the `postgres` user when this process is root; throws with its output on failure.
    ///
    /// `posix_spawn` with the output in a file rather than Foundation's `Process` with a pipe:
    /// `pg_ctl start` leaves a daemon behind that inherits whatever the tool had open.
    @discardableResult
    static func runAsServerUser(_ tool: String, _ arguments: [String]) throws -> String {
        let command = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", tool] + arguments : [tool] + arguments
        let outputPath = NSTemporaryDirectory() + "pg-tool-\(UUID().uuidString).log"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw PostgresClusterError("cannot run \(tool): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS are macros Swift cannot import.
        let exitCode = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exitCode == 0 else {
            throw PostgresClusterError("\((tool as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed (\(exitCode)): \(text)")
        }
        return text
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PostgresClusterError("cannot make a socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw PostgresClusterError("cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops the cluster at exit, and starts a watchdog that stops it if this process dies without exiting.
    private static func registerCleanup(directory: String, bin: String) {
        let stop = (getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "") + "\(bin)/pg_ctl -D \(directory)/data -m immediate stop"
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stop) >/dev/null 2>&1; rm -rf \(directory)"]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try? watchdog.run()
        exitHookOnce.withLock { registered in
            if registered { return }
            registered = true
            atexit {
                for (directory, bin) in PostgresCluster.running.withLock({ $0 }) {
                    _ = try? PostgresCluster.runAsServerUser(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "stop"])
                    try? FileManager.default.removeItem(atPath: directory)
                }
            }
        }
    }

    private static let exitHookOnce = Mutex(false)
}
