import Foundation
import Observability
import POSIX

/// `photoscroll backup --out FILE [--sessions]`: one consistent file of everything that is not
/// learnt again from the folders, taken while servers run and write.
public struct BackupCommand: Sendable, Equatable {
    public var configuration: ConfigurationOptions
    public var output: String
    public var sessions: Bool

    public init(configuration: ConfigurationOptions = ConfigurationOptions(), output: String, sessions: Bool = false) {
        self.configuration = configuration
        self.output = output
        self.sessions = sessions
    }

    /// Takes the backup and writes it to `output` under a temporary name, renamed into place
    /// once whole, so a crash never leaves a file that looks like a backup.
    static func run(configuration: Configuration, output: String, sessions: Bool, logger: Logger) throws -> BackupSnapshot {
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        defer { databases.close() }
        let snapshot = try BackupSnapshot.take(from: databases, sessions: sessions, now: Int64(Date().timeIntervalSince1970),
                                               progress: MaintenanceProgress.line)
        try write(BackupFile.encode(snapshot), to: output)
        return snapshot
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

extension BackupCommand: Command {
    public static let name = "backup"
    public static let usage = "photoscroll backup --out FILE [--sessions] [--config FILE] [--data DIR] [--database URL]"
    public static let abstract = """
    Write one file holding the catalog's ids, comments, accounts, share links, favourites, albums,
    trash and upload records (not the photos, not the pyramids), consistent while servers run.
    """
    public static var options: [String] { ["out"] + ConfigurationOptions.names }
    public static var flags: [String] { ["sessions"] }
    public static var optionHelp: [String: String] {
        ["out": "FILE      Where to write the backup (gzip'd JSON lines; see docs/deploy.md).",
         "sessions": "      Keep who is signed in too (otherwise everyone signs in again after a restore)."]
    }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        guard arguments.positional.isEmpty, let out = arguments.options["out"] else {
            throw .missing("backup takes --out FILE, and no other words.")
        }
        self.init(configuration: try ConfigurationOptions(arguments), output: out, sessions: arguments.flags.contains("sessions"))
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        return try Self.logging(logger) {
            let snapshot = try Self.run(configuration: configuration, output: output, sessions: sessions, logger: logger)
            print("backed up \(snapshot.rowCount) rows of \(snapshot.tables.count) tables → \(output)")
            return 0
        }
    }
}
