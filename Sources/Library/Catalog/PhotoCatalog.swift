import Foundation
import Imaging
import Observability
import POSIX
import Synchronization

/// The photos folder as a numbered, versioned list, persisted so ids survive restarts.
///
/// Ids come from the store and are never renumbered: files new to the catalog are numbered in
/// name order, a removed file keeps its row (and its id when the same file returns), and a file
/// that moves (same bytes elsewhere, a renamed folder) keeps its id. A file is listed as soon as
/// it is seen; its bytes are hashed and its header read when it is examined, which the scan does
/// at once (`.complete`) or leaves to the background (`.listing`).
final class PhotoCatalog: Sendable {
    struct State {
        var entries: [Int: CatalogEntry] = [:]
        /// Versions whose pyramid is complete on disk.
        var built: Set<String> = []
        /// Listed photos in id order.
        var photos: [Photo] = []
        /// `photos` as image facts, position for position: what a hot image request reads.
        var infos: [PhotoImageInfo] = []
        /// Id → position in `photos`.
        var byID: [Int: Int] = [:]
        /// Path → id of every present entry.
        var byPath: [String: Int] = [:]
        /// Version → ids of the listed photos at that version.
        var byVersion = VersionIndex()
        /// Listed photos by status.
        var counts: [PhotoStatus: Int] = [:]
        /// Present entries not examined yet.
        var unexamined = 0
        /// Bumped by every change a reader could see.
        var generation = 0
        var health = LibraryHealth()
        /// Positions in `photos` in the library's order (date taken, then id), and each
        /// position's place in it; sorted again on the first read after a date changed.
        var order: [Int32] = []
        var rank: [Int32] = []
        var orderValid = false
        /// Bumped when what is listed or where a photo lives changes: albums are looked at again.
        var pathsGeneration = 0
        /// Each album's photos in order, for the generation they were gathered in.
        var albumContents: AlbumContents?
    }

    let folder: PhotoFolder
    /// `<data>/tiles`: one immutable folder per version.
    let tilesDirectory: String
    let settings: RenderSettings
    let names: VersionNames
    let store: any CatalogStore
    let renderer: any PhotoRendering
    let logger: Logger
    let state = Mutex(State())
    /// One scan at a time.
    let scanning = NSLock()
    /// Changes to entries are applied and persisted under this lock, so the store's rows end up as
    /// the entries in memory whatever order scans and examinations finish in.
    let writing = NSLock()
    private let observers = Mutex<[@Sendable (CatalogChange) -> Void]>([])
    /// Which folder is which album, kept across renames (see PhotoCatalog+albums.swift).
    let albumIdentity = Mutex(AlbumIdentity())
    /// One pass of reading headers at a time.
    let readingHeaders = NSLock()
    /// One examination of a photo at a time: callers that find one running wait for its result.
    let examinations = SingleFlight<Int, Photo?>()

    /// Loads the stored catalog; nothing on disk is read yet beyond which pyramids exist.
    init(folder: PhotoFolder, tilesDirectory: String, settings: RenderSettings, store: any CatalogStore,
                renderer: any PhotoRendering, logger: Logger) throws {
        self.folder = folder
        self.tilesDirectory = tilesDirectory
        self.settings = settings
        let names = VersionNames(settings)
        self.names = names
        self.store = store
        self.renderer = renderer
        self.logger = logger
        let entries = try store.entries()
        state.withLock { state in
            state.entries.reserveCapacity(entries.count)
            for entry in entries { state.entries[entry.id] = entry }
            state.built = Self.pyramidVersions(in: tilesDirectory)
            Self.rebuild(&state, folder: folder, names: names)
        }
        let albums = try store.albums()
        albumIdentity.withLock { $0.load(albums) }
        // Before any scan: the folders as they were, so a folder renamed while the server was
        // stopped is recognised by its photos.
        syncAlbums()
    }

    /// The versions with a pyramid folder in `tilesDirectory`, from one read of the folder:
    /// for a large library far cheaper than a `stat` per photo.
    static func pyramidVersions(in tilesDirectory: String) -> Set<String> {
        guard let directory = try? FileDescriptor.open(tilesDirectory, OpenFlags.readOnly | OpenFlags.directory) else { return [] }
        defer { directory.close() }
        var versions: Set<String> = []
        try? directory.forEachEntry { entry in
            let kind = entry.fileKind
            guard kind == .directory || kind == .unknown, entry.name.count == 12, !entry.isHidden, let name = entry.text else { return true }
            if kind == .unknown && !pyramidExists(tilesDirectory + "/" + name) { return true }
            versions.insert(name)
            return true
        }
        return versions
    }

    /// Whether a pyramid folder is there: one `stat`.
    static func pyramidExists(_ directory: String) -> Bool {
        (try? fileStatus(directory))?.fileKind == .directory
    }

    /// Where the pyramid of a version lives.
    func pyramidDirectory(_ version: String) -> String { tilesDirectory + "/" + version }

    /// Calls `observer` (on the thread that made the change) after every change to the list.
    func observe(_ observer: @escaping @Sendable (CatalogChange) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func notify(_ change: CatalogChange) {
        guard !change.isEmpty else { return }
        syncAlbums()
        for observer in observers.withLock({ $0 }) { observer(change) }
    }

    // MARK: - Reading

    /// Every listed photo, in id order.
    var photos: [Photo] { state.withLock { $0.photos } }

    /// The listed photos and the generation they belong to, read together.
    var snapshot: (generation: Int, photos: [Photo]) { state.withLock { ($0.generation, $0.photos) } }

    /// How many photos are listed.
    var count: Int { state.withLock { $0.photos.count } }

    /// Bumped by every change a reader could see; equal generations mean equal lists.
    var generation: Int { state.withLock { $0.generation } }

    /// Listed photos by status.
    var statusCounts: [PhotoStatus: Int] { state.withLock { $0.counts } }

    /// Listed photos whose bytes were not hashed yet.
    var unexaminedCount: Int { state.withLock { $0.unexamined } }

    /// Folders that could not be reached in the last scans.
    var health: LibraryHealth { state.withLock { $0.health } }

    /// One listed photo, or nil.
    func photo(_ id: Int) -> Photo? {
        state.withLock { state in Self.position(of: id, in: state).map { state.photos[$0] } }
    }

    /// The date keys of photos by id, nil for one not listed, under one lock: a search orders
    /// thousands of matches by date and needs nothing else of them (copying each record was
    /// much of a search's time).
    func takenKeys(_ ids: [Int]) -> [Int64?] {
        state.withLock { state in ids.map { id in Self.position(of: id, in: state).map { state.photos[$0].takenKey } } }
    }

    /// The catalog row of an id, listed or not.
    func entry(_ id: Int) -> CatalogEntry? { state.withLock { $0.entries[id] } }

    /// What serving an image of a present photo needs first, or nil: every hot tile asks, and
    /// copying the whole record (five strings to retain and release) was a large part of a hit.
    func imageInfo(_ id: Int) -> PhotoImageInfo? {
        state.withLock { state in Self.position(of: id, in: state).map { state.infos[$0] } }
    }

    /// Where photo `id` is in the published list.
    static func position(of id: Int, in state: State) -> Int? {
        // Ids are handed out in order from 1 and a removed file keeps its id: the photo with
        // id n is usually at n − 1, found without hashing.
        let guess = id - 1
        if guess >= 0, guess < state.photos.count, state.photos[guess].id == id { return guess }
        return state.byID[id]
    }

    /// The first position whose id is above `id` (binary search; the list is in id order).
    static func firstPosition(above id: Int, in photos: [Photo]) -> Int {
        var low = 0, high = photos.count
        while low < high {
            let mid = (low + high) / 2
            if photos[mid].id <= id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Every stored row, present or not, in id order: what each id means (for the comments'
    /// check that their photo ids still name the same files).
    var entries: [CatalogEntry] { state.withLock { $0.entries.values.sorted { $0.id < $1.id } } }

    /// The present photo stored under a relative path, or nil.
    func photo(relativePath: String) -> Photo? {
        state.withLock { state in state.byPath[relativePath].flatMap { Self.position(of: $0, in: state) }.map { state.photos[$0] } }
    }

    /// Versions whose pyramids must stay on disk: every listed photo's, the previous version of a
    /// changed file not examined yet (the same bytes may be back), and those of photos missing
    /// for less than `graceNanoseconds` before `now`.
    func retainedVersions(now: Int, graceNanoseconds: Int) -> Set<String> {
        state.withLock { state in
            var versions = state.byVersion.versions
            for entry in state.entries.values where !entry.contentHash.isEmpty {
                let recent = entry.missingSince.map { now - $0 < graceNanoseconds } ?? false
                if (entry.present && !entry.hashed) || recent {
                    versions.insert(names.version(contentHash: entry.contentHash))
                }
            }
            return versions
        }
    }

    /// Versions the catalog currently points at (tiles of any other version are garbage).
    var currentVersions: Set<String> { state.withLock { $0.byVersion.versions } }

    // MARK: - Publishing

    /// The version an entry is served under now: from its bytes once examined, provisional before.
    static func version(of entry: CatalogEntry, names: VersionNames) -> String {
        entry.hashed ? names.version(contentHash: entry.contentHash)
            : names.provisionalVersion(path: entry.path, fingerprint: entry.fingerprint)
    }

    static func photo(_ entry: CatalogEntry, version: String, built: Bool, folder: PhotoFolder) -> Photo {
        let failed = entry.hashed && entry.error != nil && entry.errorVersion == version
        let status: PhotoStatus = failed ? .failed : built ? .ready : .processing
        return Photo(id: entry.id, relativePath: entry.path, sourcePath: folder.absolute(entry.path),
                     title: Photo.title(for: entry.path), width: entry.width, height: entry.height,
                     version: version, status: status, error: failed ? entry.error : nil,
                     taken: taken(of: entry), details: entry.details)
    }

    static func photo(_ entry: CatalogEntry, built: Set<String>, folder: PhotoFolder, names: VersionNames) -> Photo {
        let version = version(of: entry, names: names)
        return photo(entry, version: version, built: built.contains(version), folder: folder)
    }

    /// Rebuilds the whole published list from the entries: after adds and removals.
    static func rebuild(_ state: inout State, folder: PhotoFolder, names: VersionNames) {
        let ids = state.entries.compactMap { $0.value.present ? $0.key : nil }.sorted()
        var photos: [Photo] = []
        photos.reserveCapacity(ids.count)
        var infos: [PhotoImageInfo] = []
        infos.reserveCapacity(ids.count)
        var byPath: [String: Int] = [:]
        byPath.reserveCapacity(ids.count)
        var byID: [Int: Int] = [:]
        byID.reserveCapacity(ids.count)
        var byVersion = VersionIndex()
        byVersion.reserve(ids.count)
        // Tallied by case, not hashed per photo.
        var tally = [Int](repeating: 0, count: PhotoStatus.allCases.count)
        var unexamined = 0
        for (i, id) in ids.enumerated() {
            let entry = state.entries[id]!
            let version = version(of: entry, names: names)
            let photo = photo(entry, version: version, built: state.built.contains(version), folder: folder)
            photos.append(photo)
            infos.append(PhotoImageInfo(photo))
            byPath[entry.path] = id
            byID[id] = i
            byVersion.insert(id, version)
            tally[photo.status.index] += 1
            if !entry.hashed { unexamined += 1 }
        }
        var counts: [PhotoStatus: Int] = [:]
        for status in PhotoStatus.allCases where tally[status.index] > 0 { counts[status] = tally[status.index] }
        state.photos = photos
        state.infos = infos
        state.byID = byID
        state.byPath = byPath
        state.byVersion = byVersion
        state.counts = counts
        state.unexamined = unexamined
        state.generation += 1
        state.orderValid = false
        state.pathsGeneration += 1
    }

    /// Republishes listed photos whose entries changed without changing what is listed: one
    /// record each, no sort, for each of thousands of examinations and builds.
    static func refresh(_ ids: [Int], in state: inout State, folder: PhotoFolder, names: VersionNames) {
        var touched = false
        for id in ids {
            guard let entry = state.entries[id], let i = position(of: id, in: state) else { continue }
            let old = state.photos[i]
            let new = photo(entry, built: state.built, folder: folder, names: names)
            guard new != old else { continue }
            touched = true
            if old.version != new.version {
                state.byVersion.remove(id, old.version)
                state.byVersion.insert(id, new.version)
            }
            if old.relativePath != new.relativePath {
                if state.byPath[old.relativePath] == id { state.byPath[old.relativePath] = nil }
                state.byPath[new.relativePath] = id
                state.pathsGeneration += 1
            }
            if old.takenKey != new.takenKey { state.orderValid = false }
            state.counts[old.status, default: 0] -= 1
            state.counts[new.status, default: 0] += 1
            state.photos[i] = new
            state.infos[i] = PhotoImageInfo(new)
        }
        if touched { state.generation += 1 }
    }
}

extension PhotoCatalog {
    /// Takes the catalog as the store holds it now, and the pyramids on disk: what a process that
    /// did not scan does to learn what another one (the replica that scanned, examined or built)
    /// found. Returns the listed photos still waiting for a pyramid.
    @discardableResult
    func reload() throws -> [Int] {
        writing.lock()
        defer { writing.unlock() }
        let rows = try store.entries()
        let built = Self.pyramidVersions(in: tilesDirectory)
        let (change, pending) = state.withLock { state -> (CatalogChange, [Int]) in
            var entries: [Int: CatalogEntry] = [:]
            entries.reserveCapacity(rows.count)
            for row in rows { entries[row.id] = row }
            if entries != state.entries || built != state.built {
                var before: [Int: Photo] = [:]
                before.reserveCapacity(state.photos.count)
                for photo in state.photos { before[photo.id] = photo }
                state.entries = entries
                state.built = built
                Self.rebuild(&state, folder: folder, names: names)
                var change = CatalogChange()
                for photo in state.photos {
                    if let old = before.removeValue(forKey: photo.id) {
                        if old != photo { change.changed.append(photo.id) }
                    } else {
                        change.added.append(photo.id)
                    }
                }
                change.removed = before.keys.sorted()
                return (change, state.photos.filter { $0.status == .processing }.map(\.id))
            }
            return (CatalogChange(), state.photos.filter { $0.status == .processing }.map(\.id))
        }
        if !change.isEmpty {
            logger.debug("catalog reloaded", [("added", String(change.added.count)), ("changed", String(change.changed.count)),
                                              ("removed", String(change.removed.count))])
        }
        notify(change)
        return pending
    }
}
