import Foundation
import Observability

/// `<tiles>/.builds.lock`: every pyramid build, in any process sharing the data folder, holds
/// it shared; removing leftover staging folders takes it exclusively, without waiting. So a
/// `.partial` folder is removed only when no process can be writing into it.
enum BuildLock {
    static func path(in tilesDirectory: String) -> String { tilesDirectory + "/.builds.lock" }

    /// Holds the lock shared until `release`; nil when it cannot be opened (the build goes on
    /// without it, and leftovers are then only collected after the garbage grace period).
    static func shared(in tilesDirectory: String) -> Int32? {
        let fd = open(path(in: tilesDirectory), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_SH) != 0 {
            if errno != EINTR {
                close(fd)
                return nil
            }
        }
        return fd
    }

    static func release(_ fd: Int32?) {
        if let fd { close(fd) }
    }

    /// Removes every `.<version>.partial-*` staging folder a crashed build left, when no build
    /// runs anywhere on this data folder; returns the names removed.
    @discardableResult
    static func removeLeftovers(in tilesDirectory: String, logger: Logger) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tilesDirectory) else { return [] }
        let leftovers = names.filter { $0.hasPrefix(".") && $0.contains(".partial") }
        guard !leftovers.isEmpty else { return [] }
        let fd = open(path(in: tilesDirectory), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
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
