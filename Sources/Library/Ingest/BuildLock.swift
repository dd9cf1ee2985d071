import Foundation
import POSIX
import Observability

/// `<tiles>/.builds.lock`: every pyramid build, in any process sharing the data folder, holds
/// it shared; removing leftover staging folders takes it exclusively, without waiting. So a
/// `.partial` folder is removed only when no process can be writing into it.
enum BuildLock {
    static func path(in tilesDirectory: String) -> String { tilesDirectory + "/.builds.lock" }

    /// Holds the lock shared until `release`; nil when it cannot be opened (the build goes on
    /// without it, and leftovers are then only collected after the garbage grace period).
    static func shared(in tilesDirectory: String) -> FileDescriptor? {
        guard let file = try? FileDescriptor.open(path(in: tilesDirectory), OpenFlags.readWrite | OpenFlags.create) else { return nil }
        do { try file.lock(FileLock.shared) } catch {
            file.close()
            return nil
        }
        return file
    }

    static func release(_ file: FileDescriptor?) {
        file?.close()
    }

    /// Removes every `.<version>.partial-*` staging folder a crashed build left, when no build
    /// runs anywhere on this data folder; returns the names removed.
    @discardableResult
    static func removeLeftovers(in tilesDirectory: String, logger: Logger) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tilesDirectory) else { return [] }
        let leftovers = names.filter { $0.hasPrefix(".") && $0.contains(".partial") }
        guard !leftovers.isEmpty else { return [] }
        guard let file = try? FileDescriptor.open(path(in: tilesDirectory), OpenFlags.readWrite | OpenFlags.create) else { return [] }
        defer { file.close() }
        guard (try? file.lock(FileLock.exclusive | FileLock.nonBlocking)) != nil else {
            // Another process is building now; its staging folder may be among these. They are
            // collected later, once older than the garbage grace period.
            logger.info("staging folders left by interrupted builds are kept while another process builds", [("count", String(leftovers.count))])
            return []
        }
        var removed: [String] = []
        for name in leftovers {
            do {
                try FileManager.default.removeItem(atPath: tilesDirectory + "/" + name)
                removed.append(name)
            } catch {
                logger.warning("cannot remove a staging folder left by an interrupted build", [("path", tilesDirectory + "/" + name), ("error", "\(error)")])
            }
        }
        if !removed.isEmpty { logger.info("removed staging folders left by interrupted builds", [("folders", removed.joined(separator: ","))]) }
        return removed
    }
}
