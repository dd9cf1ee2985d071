import POSIX
import Synchronization

/// Small static files in memory, bounded in bytes; shared by every loop.
final class StaticFileCache: Sendable {
    /// Entries by inode, each holding its path: a hit hashes one word where hashing the file's
    /// whole path cost about 400 instructions, and the path is compared after (two hard links to
    /// one file take turns in one entry; files on other devices with the same inode, likewise).
    private struct State {
        var entries: [UInt64: (identity: FileIdentity, file: CachedFile)] = [:]
        var bytes = 0
    }

    private let state = Mutex(State())
    let capacityBytes: Int

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    /// The cached file, if the one on disk is still the same.
    func lookup(_ identity: FileIdentity) -> CachedFile? {
        state.withLock { state in
            guard let entry = state.entries[identity.inode], entry.identity == identity else { return nil }
            return entry.file
        }
    }

    /// The cached file at `path`, if `info` (a fresh stat of it) says it is unchanged: the hit
    /// path, which builds no identity and compares no path.
    func lookup(path: String, info: FileStatus) -> CachedFile? {
        state.withLock { state in
            guard let entry = state.entries[info.inode], entry.identity.isSameFile(as: info), entry.identity.path == path else {
                return nil
            }
            return entry.file
        }
    }

    /// Reads (and, when asked, compresses) the file and caches it; nil when it cannot be read,
    /// changed while being read, or cannot be reached under `root` without following a symlink.
    func load(_ identity: FileIdentity, root: String, contentType: String, compressible: Bool, compress: Bool) -> CachedFile? {
        guard let file = OpenFile(beneath: root, path: identity.path), file.size == identity.size,
              file.inode == identity.inode else { return nil }
        var bytes = [UInt8](repeating: 0, count: identity.size)
        let read = try? bytes.withUnsafeMutableBytes { buffer in
            try FileDescriptor(rawValue: file.fd).read(into: buffer, fromOffset: 0)
        }
        guard read == bytes.count else { return nil }
        let gzipped = compress ? Gzip.compress(bytes, level: 9) : lookup(identity)?.gzipped
        let headers = CachedFile.headers(identity: identity, contentType: contentType, compressible: compressible)
        let cached = CachedFile(bytes: bytes, headers: headers, compressible: compressible, gzipped: gzipped)
        state.withLock { state in
            if let old = state.entries[identity.inode] {
                state.bytes -= old.file.bytes.count + (old.file.gzipped?.count ?? 0)
            }
            let cost = bytes.count + (gzipped?.count ?? 0)
            // Simple and bounded: when full, start over rather than track recency per hit.
            if state.bytes + cost > capacityBytes {
                state.entries.removeAll()
                state.bytes = 0
            }
            if cost <= capacityBytes {
                state.entries[identity.inode] = (identity, cached)
                state.bytes += cost
            }
        }
        return cached
    }
}
