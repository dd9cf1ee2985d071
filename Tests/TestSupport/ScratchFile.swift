import Foundation
import Synchronization

/// Files a test makes for itself, written without an fsync.
///
/// Foundation's writes (`FileManager.createFile`, `Data.write`, `String.write`) fsync every
/// file, atomic or not: a few milliseconds each on an idle disk, tens on a busy one, which made
/// a test that lays out a thousand photos wait a minute for the disk. A test's scratch files
/// need no durability; they are written with plain open/write/close.
public enum ScratchFile {
    /// Writes `bytes` to `path` (replacing it), making the folders above it; false when it cannot.
    /// The file appears whole, as Foundation's atomic writes make it: written beside under a
    /// hidden name, then renamed into place (a watcher never sees it half written).
    @discardableResult
    public static func write(_ bytes: some Collection<UInt8>, to path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        // A short name of its own: the file's may already be as long as a name can be.
        let staging = (folder.isEmpty ? "" : folder + "/") + ".scratch-\(getpid())-\(counter.add(1, ordering: .relaxed).newValue)"
        let fd = open(staging, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        let array = Array(bytes)
        let written = array.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        close(fd)
        guard written, rename(staging, path) == 0 else {
            unlink(staging)
            return false
        }
        return true
    }

    private static let counter = Atomic<Int>(0)

    /// Writes `text` as UTF-8 to `path`.
    @discardableResult
    public static func write(_ text: String, to path: String) -> Bool { write(Array(text.utf8), to: path) }
}
