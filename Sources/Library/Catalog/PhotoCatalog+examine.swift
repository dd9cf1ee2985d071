import Foundation
import Imaging
import Synchronization

extension PhotoCatalog {
    /// The entry as examined: its bytes hashed (with `knownHashes` when the scan already read
    /// them) and its header read. Bytes that hash as before keep the size and error found before
    /// (a touched file is not a changed one); a file that cannot be read or decoded gets the error.
    func examined(_ entry: CatalogEntry, knownHashes: ContentHash.FileHashes? = nil) -> CatalogEntry {
        var result = entry
        result.hashed = true
        let source = self.source(of: entry)
        let legacy = entry.hashKind == .legacy && !entry.contentHash.isEmpty
        let hashes: ContentHash.FileHashes
        do {
            if let knownHashes, !legacy || knownHashes.legacy != nil {
                hashes = knownHashes
            } else {
                hashes = try ContentHash.file(source, alsoLegacy: legacy)
            }
        } catch {
            result.contentHash = ContentHash.hex(of: Array(entry.path.utf8))
            result.hashKind = .xxh3
            result.width = 0
            result.height = 0
            result.error = "\(error)"
            result.errorVersion = names.version(contentHash: result.contentHash)
            return result
        }
        if !entry.contentHash.isEmpty, hashes.hash(entry.hashKind) == entry.contentHash, entry.width > 0 || entry.error != nil {
            if result.taken == nil && result.error == nil { readHeader(into: &result) }
            return result
        }
        result.contentHash = hashes.xxh3
        result.hashKind = .xxh3
        result.error = nil
        result.errorVersion = nil
        result.width = 0
        result.height = 0
        result.taken = nil
        result.takenSource = nil
        result.details = nil
        do {
            let size = try renderer.probe(source)
            result.width = size.width
            result.height = size.height
            readHeader(into: &result)
        } catch {
            result.error = "\(error)"
            result.errorVersion = names.version(contentHash: result.contentHash)
        }
        return result
    }

    /// Reads when, how and where the photo was taken from its header into the entry. A field
    /// that is present but unusable is dropped and said once in the log (the header is read
    /// once a version); a header that cannot be read leaves the file's modification time.
    func readHeader(into entry: inout CatalogEntry) {
        let metadata: PhotoMetadata?
        do {
            metadata = try renderer.metadata(source(of: entry))
        } catch {
            logger.info("cannot read the photo's details; its file date stands in", [("path", entry.path), ("error", "\(error)")])
            metadata = nil
        }
        guard let metadata else {
            entry.taken = CaptureDate(utcNanoseconds: entry.fingerprint.modified).rfc3339
            entry.takenSource = CaptureDate.Source.file.rawValue
            entry.details = nil
            return
        }
        entry.taken = metadata.taken.rfc3339
        entry.takenSource = metadata.taken.source.rawValue
        entry.details = PhotoDetails.json(metadata)
        if !metadata.dropped.isEmpty {
            logger.info("photo details dropped", [("path", entry.path),
                                                  ("fields", metadata.dropped.map(\.description).joined(separator: "; "))])
        }
    }

    /// Reads the headers of examined photos stored before their details were kept (a catalog
    /// from an older version): a few kilobytes a photo, no pyramid rebuilt. Returns how many.
    @discardableResult
    func readMissingHeaders(batch: Int = 64, isStopped: () -> Bool = { false }) -> Int {
        guard readingHeaders.try() else { return 0 }
        defer { readingHeaders.unlock() }
        let wanted = state.withLock { state in
            state.entries.values.filter { $0.present && $0.hashed && $0.taken == nil && $0.error == nil }.sorted { $0.id < $1.id }
        }
        var done = 0
        var start = 0
        while start < wanted.count && !isStopped() {
            let chunk = Array(wanted[start..<min(wanted.count, start + batch)])
            start += chunk.count
            let read = Mutex<[Int: CatalogEntry]>([:])
            DispatchQueue.concurrentPerform(iterations: chunk.count) { i in
                var entry = chunk[i]
                readHeader(into: &entry)
                read.withLock { $0[entry.id] = entry }
            }
            let results = read.withLock { $0 }
            writing.lock()
            let updated = state.withLock { state -> [CatalogEntry] in
                var updated: [CatalogEntry] = []
                for entry in chunk {
                    guard let result = results[entry.id], var current = state.entries[entry.id], current.present, current.hashed,
                          current.taken == nil, current.fingerprint == entry.fingerprint, current.path == entry.path else { continue }
                    current.taken = result.taken
                    current.takenSource = result.takenSource
                    current.details = result.details
                    state.entries[entry.id] = current
                    updated.append(current)
                }
                Self.refresh(updated.map(\.id), in: &state, folder: folder, names: names)
                return updated
            }
            do { try store.update(updated) } catch { logger.warning("cannot record photo details", [("error", "\(error)")]) }
            writing.unlock()
            done += updated.count
            notify(CatalogChange(changed: updated.map(\.id)))
        }
        if done > 0 { logger.info("read the details of photos catalogued before", [("photos", String(done))]) }
        return done
    }

    /// Waits until no pass of `readMissingHeaders` runs, or until `deadline`; true when none does.
    /// A pass told to stop ends after its batch; waiting for it before the store closes keeps it
    /// from writing to a closed store (what it has not stored is read again at the next start).
    func waitForHeaderPass(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        guard readingHeaders.lock(before: Date(timeIntervalSinceNow: max(0, seconds))) else { return false }
        readingHeaders.unlock()
        return true
    }

    /// Examines a listed photo not examined yet (hash, header) and publishes what was learnt;
    /// returns the photo as it is now. A file that changes while it is read is left as it was:
    /// the next scan sees the change.
    ///
    /// Concurrent callers for one photo (the tiles of a fitted view asked at once, and the
    /// ingest's first stage) share one examination: the file is hashed and its header read once.
    @discardableResult
    func examine(_ id: Int) -> Photo? {
        guard let entry = entry(id), entry.present else { return nil }
        guard !entry.hashed else { return photo(id) }
        return (try? examinations.run(id) { examineNow(id) }) ?? nil
    }

    private func examineNow(_ id: Int) -> Photo? {
        // Looked at again: an examination that ended while this caller came in has done it.
        guard let entry = entry(id), entry.present else { return nil }
        guard !entry.hashed else { return photo(id) }
        let result = examined(entry)
        guard folder.fingerprint(entry.path) == entry.fingerprint else { return photo(id) }
        let version = names.version(contentHash: result.contentHash)
        let built = Self.pyramidExists(pyramidDirectory(version))
        writing.lock()
        defer { writing.unlock() }
        let applied = state.withLock { state -> Bool in
            guard let current = state.entries[id], current.present, !current.hashed,
                  current.fingerprint == entry.fingerprint, current.path == entry.path else { return false }
            var result = result
            result.missingSince = current.missingSince
            state.entries[id] = result
            state.unexamined -= 1
            if built { state.built.insert(version) }
            Self.refresh([id], in: &state, folder: folder, names: names)
            return true
        }
        guard applied else { return photo(id) }
        do { try store.update(result) } catch { logger.warning("cannot record a photo", [("error", "\(error)")]) }
        notify(CatalogChange(changed: [id]))
        return photo(id)
    }

    /// Reads the headers of listed photos not examined yet whose size is not known, so that a page
    /// of them says how large each is: a header is a few kilobytes, while the hash, which reads the
    /// whole file, waits for the build. Returns the photos as they are now.
    func probeSizes(_ photos: [Photo]) -> [Photo] {
        let wanted = state.withLock { state in
            photos.compactMap { photo -> CatalogEntry? in
                guard photo.width == 0, let entry = state.entries[photo.id], entry.present, !entry.hashed, entry.width == 0 else { return nil }
                return entry
            }
        }
        guard !wanted.isEmpty else { return photos }
        let sizes = Mutex<[Int: PhotoSize]>([:])
        DispatchQueue.concurrentPerform(iterations: wanted.count) { i in
            guard let size = try? renderer.probe(source(of: wanted[i])) else { return }
            sizes.withLock { $0[wanted[i].id] = size }
        }
        let found = sizes.withLock { $0 }
        guard !found.isEmpty else { return photos }
        writing.lock()
        let updated = state.withLock { state -> [CatalogEntry] in
            var updated: [CatalogEntry] = []
            for entry in wanted {
                guard let size = found[entry.id], var current = state.entries[entry.id], current.present, !current.hashed,
                      current.fingerprint == entry.fingerprint, current.path == entry.path else { continue }
                current.width = size.width
                current.height = size.height
                state.entries[entry.id] = current
                updated.append(current)
            }
            Self.refresh(updated.map(\.id), in: &state, folder: folder, names: names)
            return updated
        }
        do { try store.update(updated) } catch { logger.warning("cannot record photo sizes", [("error", "\(error)")]) }
        writing.unlock()
        notify(CatalogChange(changed: updated.map(\.id)))
        return photos.map { photo($0.id) ?? $0 }
    }

    /// The file of a listed photo, to read: opened beneath the photos folder at every read, and
    /// only while it is the file the scan listed (see `PhotoFolder.openPhoto`).
    func source(of photo: Photo) -> PhotoSource {
        guard let entry = entry(photo.id), entry.present else {
            return PhotoSource(name: photo.relativePath) {
                throw ImagingError.io("\(photo.relativePath) is no longer in the photos folder")
            }
        }
        return source(of: entry)
    }

    /// The file of a catalog row, as it was when the row was last brought up to date.
    func source(of entry: CatalogEntry) -> PhotoSource { folder.source(entry.path, expected: entry.fingerprint) }

    /// Records that a version's pyramid is complete on disk.
    func markBuilt(_ version: String) {
        let ids = state.withLock { state -> [Int] in
            state.built.insert(version)
            let ids = state.byVersion.ids(version)
            Self.refresh(ids, in: &state, folder: folder, names: names)
            return ids
        }
        notify(CatalogChange(changed: ids))
    }

    /// Records that a version's pyramid is not (or no longer) on disk: its photos are processing
    /// again, and want a build.
    func markMissing(_ version: String) -> [Int] {
        let ids = state.withLock { state -> [Int] in
            guard state.built.remove(version) != nil else { return [] }
            let ids = state.byVersion.ids(version)
            Self.refresh(ids, in: &state, folder: folder, names: names)
            return ids
        }
        notify(CatalogChange(changed: ids))
        return ids
    }

    /// Records that a photo cannot be shown in this version and why; persisted unless told otherwise.
    func markFailed(id: Int, version: String, error: String, persist: Bool = true) {
        writing.lock()
        defer { writing.unlock() }
        let entry = state.withLock { state -> CatalogEntry? in
            guard var entry = state.entries[id], entry.hashed, names.version(contentHash: entry.contentHash) == version else { return nil }
            entry.error = error
            entry.errorVersion = version
            state.entries[id] = entry
            Self.refresh([id], in: &state, folder: folder, names: names)
            return entry
        }
        guard let entry else { return }
        if persist {
            do { try store.update(entry) } catch { logger.warning("cannot record a failure", [("error", "\(error)")]) }
        }
        notify(CatalogChange(changed: [id]))
    }
}
