import Foundation
import Library
import Observability
import POSIX
import Synchronization

/// `photoscroll ingest [PATH…]`: builds pyramids ahead of time.
public struct IngestCommand: Sendable, Equatable {
    public var configuration: ConfigurationOptions
    /// Files or folders to build, in the library or outside it; none for the whole library.
    public var paths: [String]

    public init(configuration: ConfigurationOptions = ConfigurationOptions(), paths: [String] = []) {
        self.configuration = configuration
        self.paths = paths
    }

    /// Returns the process exit code: 0 when every photo is ready, 1 when any failed.
    public static func run(configuration: Configuration, paths: [String], logger: Logger) throws -> Int32 {
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        defer { databases.close() }
        let library = try OfflineLibrary.open(configuration, databases: databases, examines: false, logger: logger)
        // Ids, not photos: an array of photo records held here would share the catalog's storage,
        // and every photo examined or built would then copy the whole catalog.
        let selected = try select(paths, in: library).map(\.id)
        // `ingestConcurrency` photos at once, each examined (hashed, header read) right before
        // its build, so every file is read from disk once.
        struct Shared {
            var next = 0
            var done = 0
            var progress: IngestProgress
            var failures: [(Photo, String)] = []
            var built = 0
            var elsewhere = 0
        }
        let shared = Mutex(Shared(progress: IngestProgress(total: selected.count, terminal: System.isTerminal(1))))
        let workers = max(1, min(selected.count, library.configuration.ingestConcurrency))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index: Int? = shared.withLock { shared in
                    guard shared.next < selected.count else { return nil }
                    defer { shared.next += 1 }
                    return shared.next
                }
                guard let index else { return }
                // Gone since it was listed: nothing to build.
                guard var photo = library.photo(selected[index]) else {
                    shared.withLock { $0.done += 1 }
                    continue
                }
                shared.withLock { $0.progress.show(done: $0.done, name: photo.relativePath) }
                if photo.status == .processing, library.file(photo.id)?.hashed == false {
                    photo = library.examine(photo.id) ?? photo
                }
                var failure: String?
                var outcome: PhotoLibrary.ClaimedBuild?
                switch photo.status {
                case .ready: break
                case .failed: failure = photo.error ?? "unknown error"
                case .processing:
                    outcome = library.buildClaimed(photo)
                    if case .failed(let error) = outcome { failure = error }
                }
                shared.withLock { shared in
                    if let failure { shared.failures.append((photo, failure)) }
                    if outcome == .built { shared.built += 1 }
                    if outcome == .elsewhere { shared.elsewhere += 1 }
                    shared.done += 1
                    shared.progress.finished(done: shared.done, name: photo.relativePath, failed: failure != nil)
                }
            }
        }
        let (failures, built, elsewhere) = shared.withLock { shared in
            shared.progress.end()
            return (shared.failures, shared.built, shared.elsewhere)
        }
        let others = elsewhere > 0 ? ", \(elsewhere) left to a server building them" : ""
        print("\(selected.count) photos: \(built) built, \(selected.count - built - elsewhere - failures.count) already ready\(others), \(failures.count) failed.")
        for (photo, error) in failures {
            FileHandle.standardError.write(Data("failed: \(photo.relativePath): \(error)\n".utf8))
        }
        return failures.isEmpty ? 0 : 1
    }

    /// The photos named on the command line (all of them when none are), each inside the photos folder.
    static func select(_ paths: [String], in library: any LibraryAdministering) throws -> [Photo] {
        guard !paths.isEmpty else { return library.photos }
        let folder = library.folder
        return try paths.map { path in
            guard let relative = folder.relativePath(of: path) else {
                throw ConfigurationError("\(path) is not inside the photos folder \(folder.root). Copy it there, or pass --photos.")
            }
            guard let photo = library.photo(relativePath: relative) else {
                throw ConfigurationError("\(path) is not a photo PhotoScroll reads (by extension: \(PhotoFolder.extensions.sorted().joined(separator: ", "))).")
            }
            return photo
        }
    }
}

extension IngestCommand: Command {
    public static let name = "ingest"
    public static let usage = "photoscroll ingest [--config FILE] [--photos DIR] [--data DIR] [PATH…]"
    public static let abstract = "Build the tile pyramids of the library, or of the given files, ahead of time."
    public static var options: [String] { ConfigurationOptions.names }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        self.init(configuration: try ConfigurationOptions(arguments), paths: arguments.positional)
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        return try Self.logging(logger) { try Self.run(configuration: configuration, paths: paths, logger: logger) }
    }
}
