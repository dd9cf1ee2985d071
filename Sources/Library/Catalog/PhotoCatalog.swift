import Foundation
import Imaging
import Observability
import Synchronization

/// The photos folder as a numbered, versioned list, persisted so ids survive restarts.
///
/// Ids come from the store and are never renumbered: the first scan numbers files in name
/// order, later files get the next id, a removed file keeps its row (and gets its id back if it
/// returns). A file's bytes are hashed only when its size, mtime or inode changed.
public final class PhotoCatalog: Sendable {
    private struct State {
        var entries: [Int: CatalogEntry] = [:]
        /// Versions whose pyramid is complete on disk.
        var built: Set<String> = []
        var photos: [Photo] = []
        /// `photos` as image facts, position for position: what a hot image request reads.
        var infos: [PhotoImageInfo] = []
        var byID: [Int: Int] = [:]
    }

    public let folder: PhotoFolder
    /// `<data>/tiles`: one immutable folder per version.
    public let tilesDirectory: String
    public let settings: RenderSettings
    private let store: any CatalogStore
    private let renderer: any PhotoRendering
    private let logger: Logger
    private let state = Mutex(State())
    private let scanning = NSLock()

    /// Loads the stored catalog; nothing on disk is read yet beyond which pyramids exist.
    public init(folder: PhotoFolder, tilesDirectory: String, settings: RenderSettings, store: any CatalogStore,
                renderer: any PhotoRendering, logger: Logger) throws {
        self.folder = folder
        self.tilesDirectory = tilesDirectory
        self.settings = settings
        self.store = store
        self.renderer = renderer
        self.logger = logger
        let entries = try store.entries()
        var built: Set<String> = []
        for entry in entries where entry.present {
            let version = settings.version(contentHash: entry.contentHash)
            if FileManager.default.fileExists(atPath: pyramidDirectory(version)) { built.insert(version) }
        }
        state.withLock { state in
            for entry in entries { state.entries[entry.id] = entry }
            state.built = built
            Self.publish(&state, folder: folder, settings: settings)
        }
    }

    /// Where the pyramid of a version lives.
    public func pyramidDirectory(_ version: String) -> String { tilesDirectory + "/" + version }

    /// Every present photo, in id order.
    public var photos: [Photo] { state.withLock { $0.photos } }

    /// One present photo, or nil.
    public func photo(_ id: Int) -> Photo? {
        state.withLock { state in Self.position(of: id, in: state).map { state.photos[$0] } }
    }

    /// What serving an image of a present photo needs first, or nil: every hot tile asks, and
    /// copying the whole record (five strings to retain and release) was a large part of a hit.
    public func imageInfo(_ id: Int) -> PhotoImageInfo? {
        state.withLock { state in
            Self.position(of: id, in: state).map { i in
                state.infos[i]
            }
        }
    }

    /// Where photo `id` is in the published list.
    private static func position(of id: Int, in state: State) -> Int? {
        // Ids are handed out in order from 1 and a removed file keeps its id: the photo with
        // id n is usually at n − 1, found without hashing.
        let guess = id - 1
        if guess >= 0, guess < state.photos.count, state.photos[guess].id == id { return guess }
        return state.byID[id]
    }

    /// Every stored row, present or not, in id order: what each id means (for the comments'
    /// check that their photo ids still name the same files).
    public var entries: [CatalogEntry] { state.withLock { $0.entries.values.sorted { $0.id < $1.id } } }

    /// The stored row of one id, present or not.
    public func entry(_ id: Int) -> CatalogEntry? { state.withLock { $0.entries[id] } }

    /// The present photo stored under a relative path, or nil.
    public func photo(relativePath: String) -> Photo? {
        photos.first { $0.relativePath == relativePath }
    }

    /// Versions the catalog currently points at (tiles of any other version are garbage).
    public var currentVersions: Set<String> { Set(photos.map(\.version)) }

    /// What changed in one scan.
    public struct ScanResult: Sendable {
        public var added: [Int] = []
        public var changed: [Int] = []
        public var removed: [Int] = []
    }

    /// Brings the catalog in line with the folder. `onPhoto` is told of every new, changed or
    /// returning photo as soon as it is examined (the published list follows within 0.2 s).
    @discardableResult
    public func scan(onPhoto: (Photo) -> Void = { _ in }) throws -> ScanResult {
        scanning.lock()
        defer { scanning.unlock() }
        var result = ScanResult()
        let paths = folder.photoPaths()
        var nextPublish: UInt64 = 0
        let known = state.withLock { state in
            Dictionary(state.entries.values.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        }
        for path in paths {
            guard let fingerprint = folder.fingerprint(path) else { continue }
            var entry: CatalogEntry
            if var existing = known[path] {
                if existing.fingerprint == fingerprint && !existing.contentHash.isEmpty {
                    guard !existing.present else { continue }
                    existing.present = true
                    entry = existing
                } else {
                    entry = existing
                    entry.present = true
                    examine(&entry, fingerprint: fingerprint)
                    if entry.contentHash == existing.contentHash && existing.present {
                        // Touched, not changed: same bytes, same version; remember the new fingerprint only.
                        entry.width = existing.width; entry.height = existing.height
                        entry.error = existing.error; entry.errorVersion = existing.errorVersion
                    } else {
                        result.changed.append(entry.id)
                    }
                }
                try store.update(entry)
            } else {
                entry = CatalogEntry(path: path, fingerprint: fingerprint, contentHash: "")
                examine(&entry, fingerprint: fingerprint)
                entry.id = try store.insert(entry)
                result.added.append(entry.id)
            }
            let version = settings.version(contentHash: entry.contentHash)
            let built = FileManager.default.fileExists(atPath: pyramidDirectory(version))
            // Republishing the whole list per file would be quadratic in a large first scan:
            // the list is refreshed at most every 0.2 s while scanning, and once at the end.
            let publishNow = DispatchTime.now().uptimeNanoseconds >= nextPublish
            let photo = state.withLock { state -> Photo in
                state.entries[entry.id] = entry
                if built { state.built.insert(version) }
                if publishNow { Self.publish(&state, folder: folder, settings: settings) }
                return Self.photo(entry, built: state.built, folder: folder, settings: settings)
            }
            if publishNow { nextPublish = DispatchTime.now().uptimeNanoseconds + 200_000_000 }
            onPhoto(photo)
        }
        let onDisk = Set(paths)
        for entry in known.values where entry.present && !onDisk.contains(entry.path) {
            var gone = entry
            gone.present = false
            try store.update(gone)
            result.removed.append(gone.id)
            state.withLock { $0.entries[gone.id] = gone }
        }
        state.withLock { Self.publish(&$0, folder: folder, settings: settings) }
        if !(result.added.isEmpty && result.changed.isEmpty && result.removed.isEmpty) {
            logger.info("scanned", [("added", String(result.added.count)), ("changed", String(result.changed.count)),
                                    ("removed", String(result.removed.count)), ("photos", String(photos.count))])
        }
        return result
    }

    /// Hashes and probes a new or changed file; a failure becomes the entry's error.
    private func examine(_ entry: inout CatalogEntry, fingerprint: FileFingerprint) {
        entry.fingerprint = fingerprint
        entry.error = nil
        entry.errorVersion = nil
        entry.width = 0
        entry.height = 0
        let source = folder.absolute(entry.path)
        do {
            entry.contentHash = try ContentHash.file(source)
        } catch {
            entry.contentHash = ContentHash.hex(of: Array(entry.path.utf8))
            entry.error = "\(error)"
            entry.errorVersion = settings.version(contentHash: entry.contentHash)
            return
        }
        do {
            let info = try renderer.probe(source)
            entry.width = info.width
            entry.height = info.height
        } catch {
            entry.error = "\(error)"
            entry.errorVersion = settings.version(contentHash: entry.contentHash)
        }
    }

    /// Records that a version's pyramid is complete on disk.
    public func markBuilt(_ version: String) {
        state.withLock { state in
            state.built.insert(version)
            // In place rather than republished: one pass, no sort, for each of thousands of builds.
            for i in state.photos.indices where state.photos[i].version == version && state.photos[i].status == .processing {
                state.photos[i].status = .ready
                state.infos[i].status = .ready
            }
        }
    }

    /// Records that a photo cannot be shown in this version and why; persisted unless told otherwise.
    public func markFailed(id: Int, version: String, error: String, persist: Bool = true) {
        let entry = state.withLock { state -> CatalogEntry? in
            guard var entry = state.entries[id], settings.version(contentHash: entry.contentHash) == version else { return nil }
            entry.error = error
            entry.errorVersion = version
            state.entries[id] = entry
            Self.publish(&state, folder: folder, settings: settings)
            return entry
        }
        if let entry, persist {
            do { try store.update(entry) } catch { logger.warning("cannot record a failure", [("error", "\(error)")]) }
        }
    }

    private static func photo(_ entry: CatalogEntry, built: Set<String>, folder: PhotoFolder, settings: RenderSettings) -> Photo {
        let version = settings.version(contentHash: entry.contentHash)
        let failed = entry.error != nil && entry.errorVersion == version
        let status: PhotoStatus = failed ? .failed : built.contains(version) ? .ready : .processing
        return Photo(id: entry.id, relativePath: entry.path, sourcePath: folder.absolute(entry.path),
                     title: Photo.title(for: entry.path), width: entry.width, height: entry.height,
                     version: version, status: status, error: failed ? entry.error : nil)
    }

    private static func publish(_ state: inout State, folder: PhotoFolder, settings: RenderSettings) {
        let present = state.entries.values.filter(\.present).sorted { $0.id < $1.id }
        let built = state.built
        state.photos = present.map { photo($0, built: built, folder: folder, settings: settings) }
        state.infos = state.photos.map(PhotoImageInfo.init)
        state.byID = Dictionary(uniqueKeysWithValues: state.photos.enumerated().map { ($1.id, $0) })
    }
}
