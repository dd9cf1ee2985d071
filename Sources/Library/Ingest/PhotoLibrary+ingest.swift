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
    @discardableResult
    public func buildPyramid(_ photo: Photo) -> String? {
        let directory = catalog.pyramidDirectory(photo.version)
        let before = catalog.folder.fingerprint(photo.relativePath)
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
            logger.info("pyramid built", [("photo", String(photo.id)), ("version", photo.version),
                                          ("seconds", String(format: "%.2f", seconds))])
            metrics.record(photos: catalog.photos)
            return nil
        } catch {
            let text = "\(error)"
            metrics.ingestFailures.increment()
            // A file that could not be written (disk full, permissions) is the server's trouble,
            // not the photo's: remembered until restart only, so the next run tries again.
            let transient: Bool
            if case ImagingError.io = error { transient = true } else { transient = false }
            catalog.markFailed(id: photo.id, version: photo.version, error: text, persist: !transient)
            logger.warning("pyramid failed", [("photo", String(photo.id)), ("path", photo.relativePath), ("error", text)])
            metrics.record(photos: catalog.photos)
            return text
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
