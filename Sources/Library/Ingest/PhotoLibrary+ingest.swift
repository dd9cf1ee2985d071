import FolderScan
import Foundation
import Imaging
import POSIX
import SQL

extension PhotoLibrary {
    /// Runs one queued job: a photo's first stage, or its pyramid build.
    func run(_ job: IngestJob) {
        switch job.stage {
        case .first: prepare(job)
        case .pyramid: build(job)
        }
    }

    /// A photo's first stage: examined (hashed, header and details read) when not yet, then its
    /// thumbnail and the low levels of the same shrunk decode kept for the build; then its
    /// pyramid is queued, behind every other photo's first stage.
    func prepare(_ job: IngestJob) {
        guard !isStopping, var photo = catalog.photo(job.photoID), photo.status == .processing else { return }
        if catalog.entry(photo.id)?.hashed == false {
            guard let examined = catalog.examine(photo.id) else { return }
            photo = examined
            if photo.status == .failed { metrics.ingestFailures.increment() }
            progress.withLock { $0.examined() }
            guard photo.status == .processing else {
                noteProgress()
                return
            }
        }
        if !PhotoCatalog.pyramidExists(catalog.pyramidDirectory(photo.version)) {
            if early.hasThumbnail(photo.version) {
                firstStageDone.withLock { _ = $0.insert(photo.version) }
            } else {
                do {
                    _ = try renderEarly(photo, tile: nil)
                } catch {
                    // The build that follows judges whose fault it is.
                    logger.debug("first stage failed; the build judges why", [("photo", String(photo.id)), ("error", "\(error)")])
                }
            }
        }
        queue(photo)
        noteProgress()
    }

    /// Examines (when not done yet) and builds one queued photo, unless it is ready or failed by now.
    func build(_ job: IngestJob) {
        // A photo just found is first shown by on-demand renders of the few tiles on screen; the
        // build, which keeps every core busy for seconds, waits a moment so they come first.
        let due = job.queuedAt + .seconds(double: configuration.ingestDelaySeconds)
        while !isStopping {
            let left = ContinuousClock.now.duration(to: due)
            guard left > .zero else { break }
            Thread.sleep(forTimeInterval: min(0.05, left.inSeconds))
        }
        guard !isStopping, var photo = catalog.photo(job.photoID), photo.status == .processing else { return }
        // One builder per pyramid among the processes on this catalog (see `claimBuild`): the
        // version read first is claimed before it is examined, and the version examined (here,
        // or by another replica whose row a reload brought in meanwhile) before it is built.
        var claims: [SQLAdvisoryLock] = []
        var claimed: Set<String> = []
        defer { releaseBuildClaims(claims, versions: claimed) }
        func claim(_ photo: Photo) -> Bool {
            guard !claimed.contains(photo.version) else { return true }
            guard let taken = claimBuild(photo) else { return false }
            claims.append(contentsOf: taken)
            claimed.insert(photo.version)
            return true
        }
        guard claim(photo) else { return }
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
        for _ in 0..<3 {
            guard let current = catalog.photo(photo.id), current.status == .processing else { return }
            photo = current
            guard claim(photo) else { return }
            // Still the version claimed once the claim is held: that one is built.
            if catalog.photo(photo.id)?.version == photo.version { break }
        }
        guard claimed.contains(photo.version), catalog.photo(photo.id)?.version == photo.version else { return }
        _ = buildPyramid(photo)
        noteProgress()
    }

    /// Claims the build of `photo`'s version among every process on this catalog: a
    /// session-scoped advisory lock (PostgreSQL for replicas, a file lock beside a SQLite
    /// catalog), so a process that dies mid-build releases it and the next one to look takes the
    /// build over. Nil when the build is not this process's to do now: another holds the claim
    /// (this one serves tiles on demand meanwhile, and picks the pyramid up from the shared data
    /// folder at its next reload), or the pyramid is already on disk (then it is marked built).
    func claimBuild(_ photo: Photo) -> [SQLAdvisoryLock]? {
        guard let claims = self.claims else { return [] }
        // Held by another job of this process (the same version queued twice): not counted.
        guard localBuildClaims.withLock({ $0.insert(photo.version).inserted }) else { return nil }
        let claim: SQLAdvisoryLock?
        do {
            claim = try claims.tryLock(SQLLockKey("pyramid-build:" + photo.version, 0))
        } catch {
            localBuildClaims.withLock { _ = $0.remove(photo.version) }
            logger.warning("cannot claim a pyramid build; it is tried again at the next scan",
                           [("photo", String(photo.id)), ("error", "\(error)")])
            return nil
        }
        guard let claim else {
            localBuildClaims.withLock { _ = $0.remove(photo.version) }
            metrics.buildsElsewhere.increment()
            logger.debug("pyramid claimed by another process", [("photo", String(photo.id)), ("version", photo.version)])
            return nil
        }
        if PhotoCatalog.pyramidExists(catalog.pyramidDirectory(photo.version)) {
            releaseBuildClaims([claim], versions: [photo.version])
            catalog.markBuilt(photo.version)
            noteProgress()
            return nil
        }
        return [claim]
    }

    /// Releases what `claimBuild` took for `versions`.
    func releaseBuildClaims(_ claims: [SQLAdvisoryLock], versions: Set<String>) {
        for claim in claims { claim.release() }
        guard self.claims != nil else { return }
        localBuildClaims.withLock { $0.subtract(versions) }
    }

    /// What `buildClaimed` did.
    public enum ClaimedBuild: Equatable, Sendable {
        case built
        case failed(String)
        /// Another process holds the build claim, or built the pyramid already.
        case elsewhere
    }

    /// Builds the photo's pyramid now, in the calling thread, under its build claim (for tools
    /// run beside servers on the same catalog, such as `photoscroll ingest`).
    public func buildClaimed(_ photo: Photo) -> ClaimedBuild {
        guard let claims = claimBuild(photo) else { return .elsewhere }
        defer { releaseBuildClaims(claims, versions: [photo.version]) }
        return buildPyramid(photo).map { .failed($0) } ?? .built
    }

    /// Builds the photo's pyramid now, in the calling thread; returns the error text on failure.
    ///
    /// Only a fault of the file itself fails the photo (and is saved in the catalog). A build can
    /// also fail because the disk filled or a write failed, whether or not libvips said so (a
    /// level missing from dzsave's output is often all that shows), or because the file was
    /// rewritten while it was read ("Premature end of input file"). So a failure is judged by
    /// reading the file again on its own: if it changed, the next scan gives it a new version;
    /// if it reads whole, the build is retried with backoff; only if it cannot be decoded is the
    /// photo marked failed.
    @discardableResult
    public func buildPyramid(_ photo: Photo) -> String? {
        let directory = catalog.pyramidDirectory(photo.version)
        // Gone (or moved) since it was queued: the scan that notices decides what it is now.
        guard let before = catalog.folder.fingerprint(photo.relativePath) else { return nil }
        let started = ContinuousClock.now
        let lock = BuildLock.shared(in: configuration.tilesDirectory)
        defer { BuildLock.release(lock) }
        // Renders on demand in flight end first (the build takes their files over); requests
        // from now on wait for the build's tiles instead of rendering them too.
        let version = photo.version, work = work
        work.beginBuild(version)
        defer { work.endBuild(version) }
        let watcher = BuildWatcher(started: { work.started(version, staging: $0, present: $1) }, wrote: { work.wrote(version, $0) })
        do {
            _ = try renderer.buildPyramid(source: catalog.source(of: photo), into: directory, reusing: early.directory(photo.version),
                                          watcher: watcher)
            // Renders on demand during a build that does not report its tiles (the libvips
            // writer) may have started a new early folder: the pyramid has all of it now.
            early.remove(photo.version)
            firstStageDone.withLock { _ = $0.remove(photo.version) }
            if catalog.folder.fingerprint(photo.relativePath) != before {
                // The file changed while it was read: these tiles may mix two versions. The next
                // scan gives the file a new version and builds again.
                try? FileManager.default.removeItem(atPath: directory)
                requestRescan()
                return nil
            }
            let seconds = (ContinuousClock.now - started).inSeconds
            metrics.ingestDuration.observe(seconds)
            metrics.pyramidsBuilt.increment()
            retries.succeeded(photo.version)
            catalog.markBuilt(photo.version)
            logger.debug("pyramid built", [("photo", String(photo.id)), ("version", photo.version),
                                           ("seconds", String(format: "%.2f", seconds))])
            progress.withLock { $0.built() }
            announceChange()
            return nil
        } catch {
            let text = "\(error)"
            if catalog.photo(photo.id)?.relativePath != photo.relativePath {
                // Moved while it was read: the photo is built again from where it is now.
                return nil
            }
            metrics.ingestFailures.increment()
            switch judge(error, photo: photo, fingerprintBefore: before) {
            case .changedWhileRead:
                logger.info("the file changed while its pyramid was built; it is built again in its new version",
                            [("photo", String(photo.id)), ("path", photo.relativePath), ("error", text)])
                requestRescan()
            case .notTheFile(let why):
                scheduleRetry(photo, error: text, why: why)
            case .theFile(let reason):
                catalog.markFailed(id: photo.id, version: photo.version, error: reason, persist: true)
                logger.warning("pyramid failed: the file cannot be shown", [("photo", String(photo.id)), ("path", photo.relativePath),
                                                                           ("error", reason)])
                metrics.record(catalog)
            }
            progress.withLock { $0.built() }
            return text
        }
    }

    /// Metrics after each photo, and a progress line in the log every few seconds while the
    /// ingest runs (and when it ends).
    func noteProgress() {
        metrics.record(catalog)
        metrics.record(stages)
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

    /// Whose fault a failed build was.
    enum BuildFault: Equatable {
        /// The file changed (size, time or inode) while it was read.
        case changedWhileRead
        /// The file reads whole on its own: the disk, a write, the machine. Retried.
        case notTheFile(String)
        /// The file cannot be decoded; the reason is what its photo shows.
        case theFile(String)
    }

    func judge(_ error: Error, photo: Photo, fingerprintBefore before: FileFingerprint?) -> BuildFault {
        if catalog.folder.fingerprint(photo.relativePath) != before { return .changedWhileRead }
        switch error {
        case ImagingError.notAnImage, ImagingError.tooLarge:
            // Judged from the file's header, which no write can change.
            return .theFile("\(error)")
        default:
            break
        }
        do {
            // A whole decode of the source, writing nothing: the thumbnail reads every row.
            _ = try renderer.thumbnail(source: catalog.source(of: photo))
        } catch ImagingError.io(let why) {
            // Unreadable for now (permissions, an I/O error, a mount gone): not the image's fault.
            return .notTheFile("the file could not be read: \(why)")
        } catch {
            if catalog.folder.fingerprint(photo.relativePath) != before { return .changedWhileRead }
            return .theFile("\(error)")
        }
        if catalog.folder.fingerprint(photo.relativePath) != before { return .changedWhileRead }
        return .notTheFile("the file decodes on its own, so writing the pyramid failed (a full disk?)")
    }

    /// Tries the build again after a backoff that doubles with each failure; the photo stays
    /// `processing` meanwhile (its tiles are rendered on demand) and nothing is saved.
    private func scheduleRetry(_ photo: Photo, error: String, why: String) {
        let (seconds, attempt) = retries.failed(photo.version, baseSeconds: configuration.retryDelaySeconds,
                                                maxSeconds: configuration.maxRetryDelaySeconds)
        logger.warning("pyramid build failed, not for a fault of the file; trying again later", [
            ("photo", String(photo.id)), ("path", photo.relativePath), ("error", error), ("judged", why),
            ("attempt", String(attempt)), ("retryInSeconds", String(format: "%.0f", seconds)),
        ])
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self, !self.isStopping, let current = self.catalog.photo(photo.id),
                  current.version == photo.version, current.status == .processing else { return }
            self.queue(current)
        }
    }

    /// Deletes tile folders that no photo's current version uses, once older than
    /// `garbageAgeSeconds` (another process may have just made one for a file it sees
    /// differently), except those of photos missing for less than `missingGraceSeconds`, which
    /// come back ready if the file does. Nothing is collected while some listed photo is not
    /// examined yet: which version it will have is not known. Returns the names removed.
    @discardableResult
    func collectGarbage(now: Date = Date()) -> [String] {
        guard catalog.unexaminedCount == 0 else { return [] }
        let root = configuration.tilesDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        let wall = Int(now.timeIntervalSince1970 * 1e9)
        let retained = catalog.retainedVersions(now: wall, graceNanoseconds: Int(configuration.missingGraceSeconds * 1e9))
        var removed: [String] = []
        for version in early.versions() where !retained.contains(version) {
            early.remove(version)
            firstStageDone.withLock { _ = $0.remove(version) }
        }
        for name in names where !retained.contains(name) && name != ".builds.lock" && name != ".early" {
            let path = root + "/" + name
            guard let info = try? fileStatus(path) else { continue }
            let modified = Date(timeIntervalSince1970: Double(info.modifiedSeconds))
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

    /// Scans collect garbage at most this often, unless `force`d (full scans).
    static let garbageCollectionSpacing: Duration = .seconds(60)

    /// Collects garbage after a scan, at most once a minute unless `force`d (full scans).
    func collectGarbageNow(force: Bool) {
        let due = loop.withLock { loop -> Bool in
            let now = ContinuousClock.now
            guard force || loop.lastGarbageCollection.map({ now >= $0 + Self.garbageCollectionSpacing }) ?? true else { return false }
            loop.lastGarbageCollection = now
            return true
        }
        if due { collectGarbage() }
    }
}

extension PhotoLibrary {
    /// How far each stage of the ingest is.
    public var stages: IngestStages {
        let counts = catalog.statusCounts
        let ready = counts[.ready] ?? 0, photos = ready + (counts[.processing] ?? 0)
        let first = firstStageDone.withLock { $0.count }
        return IngestStages(photos: photos, thumbnails: min(photos, ready + first), pyramids: ready,
                            queuedFirst: ingest.length(of: .first), queuedPyramids: ingest.length(of: .pyramid))
    }
}
