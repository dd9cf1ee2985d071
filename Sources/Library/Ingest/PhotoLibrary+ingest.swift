import Foundation
import Imaging

extension PhotoLibrary {
    /// Examines (when not done yet) and builds one queued photo, unless it is ready or failed by now.
    func build(_ job: IngestJob) {
        // A photo just found is first shown by on-demand renders of the few tiles on screen; the
        // build, which keeps every core busy for seconds, waits a moment so they come first.
        let due = job.queuedAt.uptimeNanoseconds + UInt64(configuration.ingestDelaySeconds * 1e9)
        while DispatchTime.now().uptimeNanoseconds < due && !isStopping {
            Thread.sleep(forTimeInterval: min(0.05, Double(due - DispatchTime.now().uptimeNanoseconds) / 1e9))
        }
        guard !isStopping, var photo = catalog.photo(job.photoID), photo.status == .processing else { return }
        if catalog.entry(photo.id)?.hashed == false {
            // Hashed right before the build, which then reads the file from the page cache: at
            // start every file is read from disk once.
            guard let examined = catalog.examine(photo.id) else { return }
            photo = examined
            if photo.status == .failed { metrics.ingestFailures.increment() }
            progress.withLock { $0.examined() }
            guard photo.status == .processing else {
                noteProgress()
                return
            }
        }
        _ = buildPyramid(photo)
        noteProgress()
    }

    /// Builds the photo's pyramid now, in the calling thread; returns the error text on failure.
    @discardableResult
    public func buildPyramid(_ photo: Photo) -> String? {
        let directory = catalog.pyramidDirectory(photo.version)
        // Gone (or moved) since it was queued: the scan that notices decides what it is now.
        guard let before = catalog.folder.fingerprint(photo.relativePath) else { return nil }
        let started = DispatchTime.now()
        do {
            _ = try renderer.buildPyramid(source: photo.sourcePath, into: directory)
            if catalog.folder.fingerprint(photo.relativePath) != before {
                // The file changed while it was read: these tiles may mix two versions. The next
                // scan gives the file a new version and builds again.
                try? FileManager.default.removeItem(atPath: directory)
                requestRescan()
                return nil
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            metrics.ingestDuration.observe(seconds)
            catalog.markBuilt(photo.version)
            logger.debug("pyramid built", [("photo", String(photo.id)), ("version", photo.version),
                                           ("seconds", String(format: "%.2f", seconds))])
            progress.withLock { $0.built() }
            return nil
        } catch {
            let text = "\(error)"
            if catalog.folder.fingerprint(photo.relativePath) != before || catalog.photo(photo.id)?.relativePath != photo.relativePath {
                // The file changed or moved while it was read: not the photo's fault.
                return nil
            }
            metrics.ingestFailures.increment()
            // A file that could not be written (disk full, permissions) is the server's trouble,
            // not the photo's: remembered until restart only, so the next run tries again.
            let transient: Bool
            if case ImagingError.io = error { transient = true } else { transient = false }
            catalog.markFailed(id: photo.id, version: photo.version, error: text, persist: !transient)
            logger.warning("pyramid failed", [("photo", String(photo.id)), ("path", photo.relativePath), ("error", text)])
            progress.withLock { $0.built() }
            return text
        }
    }

    /// Metrics after each photo, and a progress line in the log every few seconds while the
    /// ingest runs (and when it ends).
    func noteProgress() {
        metrics.record(catalog)
        let counts = catalog.statusCounts
        let remaining = ingest.length
        let line = progress.withLock { $0.line(remaining: remaining) }
        guard let line else { return }
        let total = counts.values.reduce(0, +)
        logger.info(remaining == 0 ? "ingest finished" : "ingest progress",
                    [("ready", String(counts[.ready] ?? 0)), ("failed", String(counts[.failed] ?? 0)),
                     ("photos", String(total)), ("queued", String(remaining)),
                     ("unexamined", String(catalog.unexaminedCount)),
                     ("photosPerSecond", String(format: "%.1f", line.rate))])
    }

    /// Deletes tile folders that no photo's current version uses, once older than
    /// `garbageAgeSeconds` (another process may have just made one for a file it sees
    /// differently), except those of photos missing for less than `missingGraceSeconds`, which
    /// come back ready if the file does. Nothing is collected while some listed photo is not
    /// examined yet: which version it will have is not known. Returns the names removed.
    @discardableResult
    public func collectGarbage(now: Date = Date()) -> [String] {
        guard catalog.unexaminedCount == 0 else { return [] }
        let root = configuration.tilesDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        let wall = Int(now.timeIntervalSince1970 * 1e9)
        let retained = catalog.retainedVersions(now: wall, graceNanoseconds: Int(configuration.missingGraceSeconds * 1e9))
        var removed: [String] = []
        for name in names where !retained.contains(name) {
            let path = root + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))
            // Leftover temporary folders of interrupted builds get a much longer grace.
            let isVersion = name.count == 12 && name.allSatisfy(\.isHexDigit)
            let age = isVersion ? configuration.garbageAgeSeconds : max(configuration.garbageAgeSeconds, 6 * 3600)
            guard now.timeIntervalSince(modified) >= age else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
                removed.append(name)
            } catch {
                logger.warning("cannot remove stale tiles", [("path", path), ("error", "\(error)")])
            }
        }
        if !removed.isEmpty { logger.info("removed stale tiles", [("versions", String(removed.count))]) }
        return removed
    }

    /// Collects garbage after a scan, at most once a minute unless `force`d (full scans).
    func collectGarbageNow(force: Bool) {
        let due = loop.withLock { loop -> Bool in
            guard force || DispatchTime.now() >= loop.lastGarbageCollection + 60 else { return false }
            loop.lastGarbageCollection = .now()
            return true
        }
        if due { collectGarbage() }
    }
}

/// Counts for the ingest's progress line: photos examined and built since the ingest began.
struct IngestProgressLog: Sendable {
    private var startedAt: DispatchTime?
    private var lastLine = DispatchTime(uptimeNanoseconds: 0)
    private var done = 0
    private var examinedCount = 0
    /// Seconds between two progress lines.
    static let interval = 10.0

    mutating func queued(_ count: Int) {
        if startedAt == nil && count > 0 {
            startedAt = .now()
            lastLine = .now()
            done = 0
            examinedCount = 0
        }
    }

    mutating func examined() { examinedCount += 1 }

    mutating func built() { done += 1 }

    /// A line is due every `interval` seconds, and once when nothing is left.
    mutating func line(remaining: Int) -> (rate: Double, Void)? {
        guard let startedAt else { return nil }
        let now = DispatchTime.now()
        let finished = remaining == 0
        guard finished || now >= lastLine + Self.interval else { return nil }
        lastLine = now
        let seconds = max(0.001, Double(now.uptimeNanoseconds - startedAt.uptimeNanoseconds) / 1e9)
        let rate = Double(max(done, examinedCount)) / seconds
        if finished { self.startedAt = nil }
        return (rate, ())
    }
}
