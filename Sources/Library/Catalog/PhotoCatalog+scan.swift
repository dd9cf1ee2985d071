import FolderScan
import Foundation
import POSIX

extension PhotoCatalog {
    /// How a scan treats what it finds.
    struct ScanOptions: Sendable {
        /// Whether new and changed files are examined (hashed, header read) during the scan,
        /// or only listed and left for the background.
        var examines: Bool
        /// A new or changed file modified less than this long ago may still be being written: it
        /// is left for a later look (`ScanResult.unsettled`). 0 takes every file as it is.
        var settleNanoseconds: Int
        /// Files known to be whole (the watcher saw them closed after writing, or moved in):
        /// taken at once, however recently modified.
        var settledFiles: Set<String> = []
        /// How long a photo whose folder cannot be reached stays listed (the photos folder's own
        /// photos stay for as long as it takes).
        var graceNanoseconds: Int
        /// The time of the scan, in nanoseconds since the epoch.
        var now: Int

        init(examines: Bool = true, settleNanoseconds: Int = 0, graceNanoseconds: Int = 86_400 * 1_000_000_000,
                    now: Int = PhotoCatalog.wallClock()) {
            self.examines = examines
            self.settleNanoseconds = settleNanoseconds
            self.graceNanoseconds = graceNanoseconds
            self.now = now
        }
    }

    /// What one scan changed.
    struct ScanResult: Sendable {
        var added: [Int] = []
        var changed: [Int] = []
        var removed: [Int] = []
        /// Photos found elsewhere with the same bytes, which kept their ids (also in `changed`).
        var moved: [Int] = []
        /// Listed photos that need examining or building now.
        var pending: [Int] = []
        /// Folders holding files still being written, and when the last of them will have been
        /// still for long enough (nanoseconds since the epoch).
        var unsettled: Set<String> = []
        var settlesAt: Int?
        /// Files looked at and `stat` calls made.
        var files = 0
        var stats = 0
        /// What the walk passed over (links out, loops, FIFOs…), by reason.
        var skipped: [FolderListing.Skipped: Int] = [:]

        /// `skipped` as one line for the log, or nil.
        var skippedSummary: String? {
            var listing = FolderListing()
            listing.skipped = skipped
            return listing.skippedSummary
        }

        /// Whether anything listed changed.
        var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }
    }

    /// Now, in nanoseconds since the epoch (as file modification times are).
    static func wallClock() -> Int { KernelClock.wallNanoseconds() }

    /// Brings the part of the catalog that `scope` covers in line with the folder.
    ///
    /// A known file at its path is unchanged when its fingerprint is (one `stat`, nothing read).
    /// A new file whose bytes match a file that went missing (same inode and time; else the same
    /// content hash) is that photo moved: it keeps its id. A file missing from a folder that was
    /// read is removed; a file missing because its folder is missing, unreadable or empty stays
    /// listed and the library is degraded (see `LibraryHealth`), unless a watcher saw it go.
    @discardableResult
    func scan(_ scope: ScanScope = .everything, options: ScanOptions = ScanOptions()) throws -> ScanResult {
        scanning.lock()
        defer { scanning.unlock() }
        let now = options.now
        var result = ScanResult()
        let listing = list(scope)
        result.stats = listing.stats
        result.skipped = listing.skipped
        if !listing.devices.isEmpty { folder.devices.record(listing.devices, replacing: scope.isEverything) }

        // What the scope accounts for, and the rows a newcomer could be.
        let (known, absent) = state.withLock { state -> ([String: CatalogEntry], [CatalogEntry]) in
            var known: [String: CatalogEntry] = [:]
            var absent: [CatalogEntry] = []
            for entry in state.entries.values {
                if entry.present {
                    if scope.covers(entry.path) { known[entry.path] = entry }
                } else {
                    absent.append(entry)
                }
            }
            return (known, absent)
        }

        var updates: [Int: CatalogEntry] = [:]
        var seen: Set<String> = []
        var newcomers: [FolderListing.File] = []
        for file in listing.files where seen.insert(file.path).inserted {
            result.files += 1
            let stable = options.settleNanoseconds == 0 || now - file.fingerprint.modified >= options.settleNanoseconds
                || options.settledFiles.contains(file.path)
            if var entry = known[file.path] {
                if entry.fingerprint == file.fingerprint {
                    if entry.missingSince != nil {
                        entry.missingSince = nil
                        updates[entry.id] = entry
                    }
                    continue
                }
                guard stable else {
                    unsettled(file, &result, options)
                    continue
                }
                entry.fingerprint = file.fingerprint
                entry.hashed = false
                entry.missingSince = nil
                updates[entry.id] = entry
            } else if stable {
                newcomers.append(file)
            } else {
                unsettled(file, &result, options)
            }
        }

        var missing = known.values.filter { !seen.contains($0.path) }
        let moves = matchMoves(newcomers, missing: missing, absent: absent, now: now, options: options)
        for (file, match) in moves.matched {
            var entry = match.entry
            entry.path = file.path
            entry.fingerprint = file.fingerprint
            entry.present = true
            entry.missingSince = nil
            if let hashes = match.hashes { entry.hashed = entry.hashed || hashes.hash(entry.hashKind) == entry.contentHash }
            if !match.entry.present { result.added.append(entry.id) }
            updates[entry.id] = entry
            result.moved.append(entry.id)
        }
        let claimed = Set(moves.matched.map { $0.1.entry.id })
        missing.removeAll { claimed.contains($0.id) }

        // A file back at the path of a removed one is that photo again; the rest are new.
        var returning: [String: CatalogEntry] = [:]
        for entry in absent where !claimed.contains(entry.id) {
            if let other = returning[entry.path], other.id > entry.id { continue }
            returning[entry.path] = entry
        }
        var fresh: [CatalogEntry] = []
        for file in Self.nameOrdered(moves.unmatched) {
            if var entry = returning.removeValue(forKey: file.path) {
                if entry.fingerprint != file.fingerprint { entry.hashed = false }
                entry.fingerprint = file.fingerprint
                entry.present = true
                entry.missingSince = nil
                updates[entry.id] = entry
                result.added.append(entry.id)
            } else {
                var entry = CatalogEntry(path: file.path, fingerprint: file.fingerprint, contentHash: "", hashed: false)
                if let hashes = moves.hashes[file.path] {
                    entry.contentHash = hashes.xxh3
                    entry.hashKind = .xxh3
                }
                fresh.append(entry)
            }
        }

        // Missing files: gone, or kept because their folder cannot be reached.
        var unreachable: [String: LibraryHealth.Unreachable] = [:]
        for var entry in missing {
            if !scope.reportsGone(entry.path), let folder = Self.unreachableFolder(of: entry.path, in: listing) {
                let since = entry.missingSince ?? now
                if folder.folder.isEmpty || now - since < options.graceNanoseconds {
                    unreachable[folder.folder, default: .init(folder: folder.folder, reason: folder.reason, photos: 0)].photos += 1
                    if entry.missingSince == nil {
                        entry.missingSince = now
                        updates[entry.id] = entry
                    }
                    continue
                }
            }
            entry.present = false
            entry.missingSince = entry.missingSince ?? now
            updates[entry.id] = entry
            result.removed.append(entry.id)
        }

        // Examined now, or left for the background.
        if options.examines {
            for (id, entry) in updates where entry.present && !entry.hashed { updates[id] = examined(entry) }
            fresh = fresh.map { examined($0, knownHashes: moves.hashes[$0.path]) }
        }
        let versions = Set((Array(updates.values) + fresh).filter { $0.present && $0.hashed }
            .map { names.version(contentHash: $0.contentHash) })
        let verifyAll = scope.isEverything
        let builtNow = pyramidsOnDisk(versions, verifyingAll: verifyAll)

        writing.lock()
        defer { writing.unlock() }
        let ids = try store.insert(fresh)
        for (i, id) in ids.enumerated() {
            fresh[i].id = id
            result.added.append(id)
        }
        let change = state.withLock { state -> CatalogChange in
            let before = state.photos
            let generation = state.generation
            var old: [Int: Photo] = [:]
            for id in updates.keys {
                if let i = Self.position(of: id, in: state) { old[id] = state.photos[i] }
            }
            if verifyAll { state.built = builtNow } else { state.built.formUnion(builtNow) }
            var structural = !fresh.isEmpty
            for entry in fresh { state.entries[entry.id] = entry }
            for (id, entry) in updates {
                if state.entries[id]?.present != entry.present { structural = true }
                state.entries[id] = entry
            }
            if scope.isEverything {
                state.health.unreachable = unreachable
            } else {
                for folder in state.health.unreachable.keys where scope.directories.contains(folder)
                    || scope.trees.contains(where: { PhotoFolder.isWithin(folder, $0) || folder == $0 }) {
                    state.health.unreachable[folder] = nil
                }
                state.health.unreachable.merge(unreachable) { _, new in new }
            }
            if structural || verifyAll {
                Self.rebuild(&state, folder: folder, names: names)
            } else {
                Self.refresh(Array(updates.keys), in: &state, folder: folder, names: names)
                state.unexamined = state.entries.values.reduce(0) { $0 + ($1.present && !$1.hashed ? 1 : 0) }
            }
            var changed: Set<Int> = []
            for (id, photo) in old {
                if let i = Self.position(of: id, in: state), state.photos[i] != photo { changed.insert(id) }
            }
            if verifyAll && !structural {
                // A pyramid deleted behind our back turns its photos back to processing.
                for (a, b) in zip(before, state.photos) where a != b { changed.insert(b.id) }
                if changed.isEmpty { state.generation = generation }
            }
            result.changed = changed.sorted()
            let added = Set(result.added)
            if verifyAll {
                result.pending = state.photos.filter { $0.status == .processing }.map(\.id)
            } else {
                result.pending = (result.added + result.changed).filter { id in
                    Self.position(of: id, in: state).map { state.photos[$0].status == .processing } ?? false
                }
            }
            return CatalogChange(added: added.sorted(), changed: result.changed.filter { !added.contains($0) },
                                 removed: result.removed.sorted())
        }
        try store.update(Array(updates.values))
        if !change.isEmpty {
            logger.info("scanned", [("added", String(change.added.count)), ("changed", String(change.changed.count)),
                                    ("moved", String(result.moved.count)), ("removed", String(change.removed.count)),
                                    ("photos", String(count))])
        }
        notify(change)
        return result
    }

    /// Files in name order for numbering: the walk already meets folders in name order and a
    /// folder's files together, so only the names within each folder are sorted.
    static func nameOrdered(_ files: [FolderListing.File]) -> [FolderListing.File] {
        var ordered: [FolderListing.File] = []
        ordered.reserveCapacity(files.count)
        var start = 0
        while start < files.count {
            let folder = PhotoFolder.parent(of: files[start].path)
            var end = start + 1
            while end < files.count && PhotoFolder.parent(of: files[end].path) == folder { end += 1 }
            let skip = folder.isEmpty ? 0 : folder.utf8.count + 1
            let named = files[start..<end].map { (name: String(Substring($0.path.utf8.dropFirst(skip))), file: $0) }
            ordered += named.sorted { NaturalOrder.less($0.name, $1.name) }.map(\.file)
            start = end
        }
        return ordered
    }

    /// The files of the scope.
    private func list(_ scope: ScanScope) -> FolderListing {
        if scope.isEverything { return folder.listAll() }
        var listing = folder.list(Array(scope.directories), recursive: false)
        let trees = folder.list(Array(scope.trees), recursive: true)
        listing.files += trees.files
        listing.directories.merge(trees.directories) { _, tree in tree }
        listing.stats += trees.stats
        listing.skipped.merge(trees.skipped, uniquingKeysWith: +)
        listing.devices.formUnion(trees.devices)
        return listing
    }

    private func unsettled(_ file: FolderListing.File, _ result: inout ScanResult, _ options: ScanOptions) {
        result.unsettled.insert(PhotoFolder.parent(of: file.path))
        let due = file.fingerprint.modified + options.settleNanoseconds
        result.settlesAt = min(result.settlesAt ?? due, due)
    }

    /// The folder that explains why a file is missing, when it is not plainly deleted: the
    /// highest folder on its path that is missing, unreadable or empty. nil when the file's own
    /// folder was read and holds other things (the file is gone).
    static func unreachableFolder(of path: String, in listing: FolderListing) -> (folder: String, reason: String)? {
        let own = PhotoFolder.parent(of: path)
        var child = path
        var folder = own
        while true {
            if let state = listing.directories[folder] {
                switch state {
                case .listed(let entries) where entries > 0:
                    // Read and not empty: the file is gone, or the folder that held it is.
                    return folder == own ? nil : (child, "missing")
                case .listed:
                    return (folder, "empty")
                case .missing:
                    if folder.isEmpty { return ("", "missing") }
                case .unreadable(let why):
                    return (folder, "unreadable (\(why))")
                }
            }
            if folder.isEmpty { return nil }
            child = folder
            folder = PhotoFolder.parent(of: folder)
        }
    }

    /// Moves among `newcomers`: files whose bytes are those of a row that is missing now or was
    /// removed within the grace period. Same size, inode and time needs no read (a rename); same
    /// size otherwise is confirmed by hashing the newcomer (a copy then a delete). The hashes
    /// made are kept, so a new file is never read twice.
    private func matchMoves(_ newcomers: [FolderListing.File], missing: [CatalogEntry], absent: [CatalogEntry], now: Int,
                            options: ScanOptions)
        -> (matched: [(FolderListing.File, (entry: CatalogEntry, hashes: ContentHash.FileHashes?))],
            unmatched: [FolderListing.File], hashes: [String: ContentHash.FileHashes]) {
        var bySize: [Int: [CatalogEntry]] = [:]
        for entry in missing { bySize[entry.fingerprint.size, default: []].append(entry) }
        for entry in absent where entry.missingSince.map({ now - $0 < options.graceNanoseconds }) ?? false {
            bySize[entry.fingerprint.size, default: []].append(entry)
        }
        var matched: [(FolderListing.File, (entry: CatalogEntry, hashes: ContentHash.FileHashes?))] = []
        var unmatched: [FolderListing.File] = []
        var hashes: [String: ContentHash.FileHashes] = [:]
        guard !bySize.isEmpty else { return ([], newcomers, [:]) }
        var taken: Set<Int> = []
        let name = { (path: String) in path.split(separator: "/").last.map(String.init) ?? path }
        for file in newcomers {
            let candidates = (bySize[file.fingerprint.size] ?? []).filter { !taken.contains($0.id) }
            guard !candidates.isEmpty else {
                unmatched.append(file)
                continue
            }
            let fingerprint = file.fingerprint
            if let same = candidates.first(where: { $0.fingerprint.inode == fingerprint.inode && $0.fingerprint.modified == fingerprint.modified }) {
                taken.insert(same.id)
                matched.append((file, (same, nil)))
                continue
            }
            let legacy = candidates.contains { $0.hashKind == .legacy }
            guard candidates.contains(where: \.hashed),
                  let hashed = try? ContentHash.file(folder.source(file.path, expected: file.fingerprint), alsoLegacy: legacy) else {
                unmatched.append(file)
                continue
            }
            hashes[file.path] = hashed
            let equal = candidates.filter { $0.hashed && hashed.hash($0.hashKind) == $0.contentHash }
            if let best = equal.first(where: { name($0.path) == name(file.path) }) ?? equal.min(by: { $0.id < $1.id }) {
                taken.insert(best.id)
                matched.append((file, (best, hashed)))
            } else {
                unmatched.append(file)
            }
        }
        return (matched, unmatched, hashes)
    }

    /// Which of `versions` have their pyramid on disk; with `verifyingAll`, every pyramid folder
    /// there is (one read of the tiles folder), so a deleted pyramid is noticed by the next full scan.
    private func pyramidsOnDisk(_ versions: Set<String>, verifyingAll: Bool) -> Set<String> {
        if verifyingAll { return Self.pyramidVersions(in: tilesDirectory) }
        return Set(versions.filter { Self.pyramidExists(pyramidDirectory($0)) })
    }
}
