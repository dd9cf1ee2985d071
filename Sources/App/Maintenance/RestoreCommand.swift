import Foundation
import Observability

/// `photoscroll restore FILE [--force]`: a backup into the database the settings name (the
/// SQLite files of the data folder, or PostgreSQL), with the same ids.
public struct RestoreCommand: Sendable, Equatable {
    public var configuration: ConfigurationOptions
    public var file: String
    public var force: Bool

    public init(configuration: ConfigurationOptions = ConfigurationOptions(), file: String, force: Bool = false) {
        self.configuration = configuration
        self.file = file
        self.force = force
    }

    /// Reads and checks the whole file first: a damaged, truncated or too new one is refused
    /// before the databases are even opened.
    static func run(configuration: Configuration, file: String, force: Bool, logger: Logger) throws -> BackupSnapshot {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            throw BackupFileError("Cannot read \(file): \(error.localizedDescription)")
        }
        let snapshot: BackupSnapshot
        do {
            snapshot = try BackupFile.decode(bytes)
        } catch let error as BackupFileError {
            throw BackupFileError("\(file): \(error.description) Nothing was written.")
        }
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        defer { databases.close() }
        try BackupRestore.restore(snapshot, into: databases, force: force, progress: MaintenanceProgress.line)
        return snapshot
    }
}

extension RestoreCommand: Command {
    public static let name = "restore"
    public static let usage = "photoscroll restore FILE [--force] [--config FILE] [--data DIR] [--database URL]"
    public static let abstract = """
    Put a backup into an empty data folder or PostgreSQL database, as serve would open it, with the
    same ids. Run it with no server on the target.
    """
    public static var options: [String] { ConfigurationOptions.names }
    public static var flags: [String] { ["force"] }
    public static var optionHelp: [String: String] { ["force": "         Replace what the target holds instead of refusing."] }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        guard arguments.positional.count == 1 else { throw .missing("restore takes one backup file.") }
        self.init(configuration: try ConfigurationOptions(arguments), file: arguments.positional[0], force: arguments.flags.contains("force"))
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        return try Self.logging(logger) {
            let snapshot = try Self.run(configuration: configuration, file: file, force: force, logger: logger)
            print("restored \(snapshot.rowCount) rows of \(snapshot.tables.count) tables from \(file)")
            return 0
        }
    }
}
