import Foundation
import Observability

/// `photoscroll migrate --to postgres://… | --to sqlite`: the configured database copied into
/// another, ids and all, in one command: a backup straight into a restore.
public struct MigrateCommand: Sendable, Equatable {
    public var configuration: ConfigurationOptions
    /// A PostgreSQL URL, or `sqlite` for the files of the data folder.
    public var target: String
    public var force: Bool

    public init(configuration: ConfigurationOptions = ConfigurationOptions(), target: String, force: Bool = false) {
        self.configuration = configuration
        self.target = target
        self.force = force
    }

    static func run(configuration: Configuration, target: String, force: Bool, logger: Logger) throws -> BackupSnapshot {
        var destination = configuration
        destination.database = target == "sqlite" ? "" : target
        guard destination.database != configuration.database else {
            throw BackupFileError("--to names the database the settings already use; name the other one.")
        }
        if !destination.database.isEmpty && destination.postgresURL == nil {
            throw BackupFileError("--to takes a postgres:// URL or the word sqlite, not \(target).")
        }
        let source = try DatabaseStartup.open(configuration, logger: logger)
        defer { source.close() }
        let snapshot = try BackupSnapshot.take(from: source, sessions: true, now: Int64(Date().timeIntervalSince1970),
                                               progress: MaintenanceProgress.line)
        let databases = try DatabaseStartup.open(destination, logger: logger)
        defer { databases.close() }
        try BackupRestore.restore(snapshot, into: databases, force: force, progress: MaintenanceProgress.line)
        return snapshot
    }
}

extension MigrateCommand: Command {
    public static let name = "migrate"
    public static let usage = "photoscroll migrate --to (postgres://… | sqlite) [--force] [--config FILE] [--data DIR] [--database URL]"
    public static let abstract = """
    Copy everything the configured database holds (catalog ids, comments, accounts, sessions, share
    links, favourites, albums, trash, uploads) into PostgreSQL, or back into the data folder's SQLite
    files, with the same ids. Stop the servers first; then set database to the target.
    """
    public static var options: [String] { ["to"] + ConfigurationOptions.names }
    public static var flags: [String] { ["force"] }
    public static var optionHelp: [String: String] {
        ["to": "URL        postgres://user:password@host/db, or sqlite for the files in the data folder.",
         "force": "         Replace what the target holds instead of refusing."]
    }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        guard arguments.positional.isEmpty, let to = arguments.options["to"], !to.isEmpty else {
            throw .missing("migrate takes --to postgres://… or --to sqlite.")
        }
        self.init(configuration: try ConfigurationOptions(arguments), target: to, force: arguments.flags.contains("force"))
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        return try Self.logging(logger) {
            let snapshot = try Self.run(configuration: configuration, target: target, force: force, logger: logger)
            let named = target == "sqlite" ? "the SQLite files in \(configuration.data)" : "PostgreSQL"
            print("copied \(snapshot.rowCount) rows of \(snapshot.tables.count) tables into \(named); set database accordingly and start serve")
            return 0
        }
    }
}
