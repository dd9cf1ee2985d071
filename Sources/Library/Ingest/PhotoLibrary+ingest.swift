import Foundation
import Imaging

extension PhotoLibrary {
    /// Builds one queued pyramid, unless the photo moved on to another version meanwhile.
    func build(_ job: IngestJob) {
        // A photo just found is first shown by on-demand renders of the few tiles on screen; the
        // build, which keeps every core busy for seconds, waits a moment so they come first.
        let due = job.queuedAt.uptimeNanoseconds + UInt64(configuration.ingestDelaySeconds * 1e9)
        while DispatchTime.now().uptimeNanoseconds < due && !isStopping {
            Thread.sleep(forTimeInterval: min(0.05, Double(due - DispatchTime.now().uptimeNanoseconds) / 1e9))
        }
        guard let photo = catalog.photo(job.photoID), photo.version == job.version, photo.status == .processing else { return }
        _ = buildPyramid(photo)
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
        let before = catalog.folder.fingerprint(photo.relativePath)
        let started = DispatchTime.now()
        let lock = BuildLock.shared(in: configuration.tilesDirectory)
        defer { BuildLock.release(lock) }
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
            retries.succeeded(photo.version)
            catalog.markBuilt(photo.version)
            logger.info("pyramid built", [("photo", String(photo.id)), ("version", photo.version),
                                          ("seconds", String(format: "%.2f", seconds))])
            metrics.record(photos: catalog.photos)
            return nil
        } catch {
            let text = "\(error)"
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
                metrics.record(photos: catalog.photos)
            }
            return text
        }
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
            _ = try renderer.thumbnail(source: photo.sourcePath)
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
        ingest.forget(IngestJob(photoID: photo.id, version: photo.version, pixels: photo.width * photo.height))
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self, !self.isStopping, let current = self.catalog.photo(photo.id),
                  current.version == photo.version, current.status == .processing else { return }
            self.queue(current)
        }
    }

    /// Deletes tile folders that no photo's current version uses, once older than
    /// `garbageAgeSeconds` (another process may have just made one for a file it sees differently).
    /// Returns the names removed.
    @discardableResult
    public func collectGarbage(now: Date = Date()) -> [String] {
        let root = configuration.tilesDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        let current = catalog.currentVersions
        var removed: [String] = []
        for name in names where !current.contains(name) {
            let path = root + "/" + name
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let modified = attributes[.modificationDate] as? Date else { continue }
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
        if !removed.isEmpty { logger.info("removed stale tiles", [("versions", removed.joined(separator: ","))]) }
        return removed
    }
}
