import POSIX

/// An open file whose descriptor closes when the last response using it is gone.
public final class OpenFile: Sendable {
    let fd: Int32
    let size: Int

    /// Takes over a descriptor open for reading on a regular file of `size` bytes (opened and
    /// checked by the application, e.g. beneath a folder it confines): it is closed with this.
    public init(adopting descriptor: FileDescriptor, size: Int) {
        self.fd = descriptor.rawValue
        self.size = size
    }

    init?(path: String) {
        guard let file = try? FileDescriptor.open(path, OpenFlags.readOnly) else { return nil }
        guard let info = try? file.status(), info.isRegularFile else {
            file.close()
            return nil
        }
        self.fd = file.rawValue
        self.size = info.size
    }

    /// Opens `path`, which must lie under `root`, component by component from the root with
    /// `O_NOFOLLOW`: a symlink anywhere below the root (one swapped in after the path was
    /// resolved, say) refuses the open instead of leading out of it. nil when it cannot be
    /// opened that way or is not a regular file.
    init?(beneath root: String, path: String) {
        let base = root.hasSuffix("/") ? root : root + "/"
        guard path.hasPrefix(base) else { return nil }
        let parts = path.dropFirst(base.count).split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        guard var directory = try? FileDescriptor.open(root, OpenFlags.readOnly | OpenFlags.directory) else { return nil }
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            let next = try? directory.open(String(part), OpenFlags.readOnly | OpenFlags.noFollow | (last ? OpenFlags.nonBlocking : OpenFlags.directory))
            directory.close()
            guard let next else { return nil }
            directory = next
        }
        guard let info = try? directory.status(), info.isRegularFile else {
            directory.close()
            return nil
        }
        // O_NONBLOCK kept a FIFO from blocking the open; reads of a regular file ignore it.
        self.fd = directory.rawValue
        self.size = info.size
    }

    /// The opened file's inode.
    var inode: UInt64 {
        (try? FileDescriptor(rawValue: fd).status().inode) ?? 0
    }

    deinit { FileDescriptor(rawValue: fd).close() }
}
