import Comments
import Foundation
import Library
import Observability

/// `photoscroll reattach-comments`: after the catalog was deleted or replaced, moves each photo's
/// comments to the photo that now holds its file, found by content hash (else by path) in a
/// fresh scan. Run with no server on the data folder (or, for PostgreSQL, on the database).
public struct ReattachCommentsCommand: Sendable, Equatable {
    public var configuration: ConfigurationOptions

    public init(configuration: ConfigurationOptions = ConfigurationOptions()) {
        self.configuration = configuration
    }

    /// What was done, for the summary line.
    struct Plan: Equatable {
        var moves: [Int: Int] = [:]
        var missing: [PhotoIdentity] = []
        var identities: [PhotoIdentity] = []
    }

    /// Where each recorded identity's comments go in `catalog`.
    static func plan(recorded: [PhotoIdentity], catalog: [CatalogEntry]) -> Plan {
        var plan = Plan()
        for identity in recorded {
            let sameContent = catalog.filter { $0.contentHash == identity.contentHash }
            let target = sameContent.first { $0.path == identity.path } ?? sameContent.first { $0.present } ?? sameContent.first
                ?? catalog.first { $0.path == identity.path }
            guard let target else {
                plan.missing.append(identity)
                continue
            }
            plan.moves[identity.photoID] = target.id
            plan.identities.append(PhotoIdentity(photoID: target.id, path: target.path, contentHash: target.contentHash))
        }
        return plan
    }

    /// Returns the process exit code: 0 when every commented photo was found.
    public static func run(configuration: Configuration, logger: Logger) throws -> Int32 {
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        defer { databases.close() }
        let library = try OfflineLibrary.open(configuration, databases: databases, logger: logger)
        defer { library.stop() }
        let store = try SQLCommentStore(database: databases.comments, logger: logger)
        defer { store.close() }
        let recorded = try store.photoIdentities()
        let unrecorded = Set(try store.photosWithComments()).subtracting(recorded.map(\.photoID))
        let plan = plan(recorded: recorded, catalog: library.catalog.entries)
        try store.reattach(moves: plan.moves, hide: plan.missing.map(\.photoID), identities: plan.identities)
        let moved = plan.moves.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
        print("\(recorded.count) photos with comments: \(moved.count) moved, \(plan.moves.count - moved.count) already right, \(plan.missing.count) not found.")
        for (from, to) in moved { print("photo \(from) → \(to)") }
        for identity in plan.missing {
            print("not found: photo \(identity.photoID) (\(identity.path)); its comments are kept, hidden, under photo \(-identity.photoID)")
        }
        if !unrecorded.isEmpty {
            print("\(unrecorded.count) photos have comments written before photo identities were kept; they were left under their ids.")
        }
        return plan.missing.isEmpty ? 0 : 1
    }
}

extension ReattachCommentsCommand: Command {
    public static let name = "reattach-comments"
    public static let usage = "photoscroll reattach-comments [--config FILE] [--photos DIR] [--data DIR]"
    public static let abstract = """
    After catalog.sqlite was lost: scan, and move each photo's comments to the photo that now holds
    its file. Run with no server on the data folder.
    """
    public static var options: [String] { ConfigurationOptions.names }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        guard arguments.positional.isEmpty else { throw .unexpectedArguments(command: Self.name, arguments.positional) }
        self.init(configuration: try ConfigurationOptions(arguments))
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        return try Self.logging(logger) { try Self.run(configuration: configuration, logger: logger) }
    }
}
