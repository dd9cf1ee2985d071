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

    /// Where each recorded identity's comments go in `catalog`: each to a row of its own, so two
    /// photos never share one (photos with identical bytes are several rows of one hash, and
    /// one photo's comments must not be merged into another's). Closest matches are taken
    /// first, over all identities at once: the same bytes at the same path, then the same bytes
    /// under the same file name, then the same bytes anywhere (a row still there before a
    /// removed one), then the same path (a file edited in place). `legacyHash`, when given,
    /// tells the older digest of a row's file, for identities recorded by an older version.
    static func plan(recorded: [PhotoIdentity], catalog: [PhotoFile], legacyHash: ((PhotoFile) -> String?)? = nil) -> Plan {
        let rows = catalog.sorted { $0.id < $1.id }
        var byHash: [String: [PhotoFile]] = [:]
        var byPath: [String: [PhotoFile]] = [:]
        for row in rows {
            if !row.contentHash.isEmpty { byHash[row.contentHash, default: []].append(row) }
            byPath[row.path, default: []].append(row)
        }
        let name = { (path: String) in path.split(separator: "/").last.map(String.init) ?? path }
        // Each round offers every identity still waiting the rows it accepts, best first.
        let rounds: [(PhotoIdentity) -> [PhotoFile]] = [
            { identity in (byHash[identity.contentHash] ?? []).filter { $0.path == identity.path && $0.present } },
            { identity in (byHash[identity.contentHash] ?? []).filter { $0.path == identity.path } },
            { identity in (byHash[identity.contentHash] ?? []).filter { $0.present && name($0.path) == name(identity.path) } },
            { identity in (byHash[identity.contentHash] ?? []).filter(\.present) },
            { identity in byHash[identity.contentHash] ?? [] },
            { identity in (byPath[identity.path] ?? []).filter(\.present) },
            { identity in byPath[identity.path] ?? [] },
        ]
        var taken: Set<Int> = []
        var target: [Int: PhotoFile] = [:]
        let waiting = recorded.sorted { $0.photoID < $1.photoID }
        func assign(_ round: (PhotoIdentity) -> [PhotoFile]) {
            for identity in waiting where target[identity.photoID] == nil {
                guard let row = round(identity).first(where: { !taken.contains($0.id) }) else { continue }
                taken.insert(row.id)
                target[identity.photoID] = row
            }
        }
        for round in rounds { assign(round) }
        if let legacyHash, waiting.contains(where: { target[$0.photoID] == nil }) {
            // Identities an older version recorded hold its digest: the rows left over are
            // hashed that way too, once, and matched like the rest.
            var legacy: [String: [PhotoFile]] = [:]
            for row in rows where row.present && !taken.contains(row.id) {
                if let hash = legacyHash(row) { legacy[hash, default: []].append(row) }
            }
            assign { identity in (legacy[identity.contentHash] ?? []).filter { $0.path == identity.path } }
            assign { identity in (legacy[identity.contentHash] ?? []).filter { name($0.path) == name(identity.path) } }
            assign { identity in legacy[identity.contentHash] ?? [] }
        }
        var plan = Plan()
        for identity in waiting {
            guard let row = target[identity.photoID] else {
                plan.missing.append(identity)
                continue
            }
            plan.moves[identity.photoID] = row.id
            plan.identities.append(PhotoIdentity(photoID: row.id, path: row.path, contentHash: row.contentHash))
        }
        return plan
    }

    /// Returns the process exit code: 0 once the comments are where they belong (those whose
    /// file is nowhere kept hidden), so the server starts; the summary says what was found.
    public static func run(configuration: Configuration, logger: Logger) throws -> Int32 {
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        defer { databases.close() }
        let library = try OfflineLibrary.open(configuration, databases: databases, logger: logger)
        defer { library.stop() }
        let store = try SQLCommentStore(database: databases.comments, logger: logger)
        defer { store.close() }
        let recorded = try store.photoIdentities()
        let commented = Set(try store.photosWithComments())
        let unrecorded = commented.subtracting(recorded.map(\.photoID))
        let plan = Self.plan(recorded: recorded, catalog: library.files) { row in
            try? ContentHash.file(library.source(of: row), alsoLegacy: true).legacy
        }
        // Comments written before identities were kept stay under their ids, unless another
        // photo's comments move there: then nobody can tell which photo they were about, and
        // they are kept hidden rather than shown mixed with the others'.
        let targets = Set(plan.moves.filter { $0.key != $0.value }.values)
        let displaced = unrecorded.filter { targets.contains($0) && plan.moves[$0] == nil }.sorted()
        try store.reattach(moves: plan.moves, hide: plan.missing.map(\.photoID) + displaced, identities: plan.identities)
        let moved = plan.moves.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
        print("\(recorded.count) photos with comments: \(moved.count) moved, \(plan.moves.count - moved.count) already right, \(plan.missing.count) not found.")
        for (from, to) in moved { print("photo \(from) → \(to)") }
        for identity in plan.missing {
            print("not found: photo \(identity.photoID) (\(identity.path)); its comments are kept, hidden, under photo \(-identity.photoID)")
        }
        for id in displaced {
            print("photo \(id) had comments from before photos were told apart by content, and another photo's comments moved there; they are kept, hidden, under photo \(-id)")
        }
        let left = unrecorded.subtracting(displaced)
        if !left.isEmpty {
            print("\(left.count) photos have comments written before photo identities were kept; they were left under their ids.")
        }
        return 0
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
