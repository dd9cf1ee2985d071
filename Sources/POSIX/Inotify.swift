#if canImport(Glibc)
import Glibc
#endif

/// An inotify instance (Linux): watches on folders, and the events they report, read without
/// blocking. The events come as the kernel writes them (`struct inotify_event` after
/// `struct inotify_event`); the caller parses them.
public struct Inotify: Sendable {
    public let fd: Int32

    /// A non-blocking, close-on-exec instance.
    public init() throws(SystemCallError) {
        fd = try requireSystemCall("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
    }

    /// Whether a folder can be named by its own descriptor (`/proc/self/fd/N`), which names the
    /// very folder that was opened, rather than by a path that may have changed since.
    public static let canWatchByDescriptor = access("/proc/self/fd", F_OK) == 0

    /// Watches the folder open at `descriptor` (through /proc/self/fd) for `mask`, only if it is
    /// a folder, dropping events of names unlinked from it; ENOSPC when the watch limit is reached.
    public func watch(descriptor: FileDescriptor, mask: UInt32) throws(SystemCallError) -> Int32 {
        try requireSystemCall("inotify_add_watch") {
            inotify_add_watch(fd, "/proc/self/fd/\(descriptor.rawValue)", mask | UInt32(IN_ONLYDIR) | UInt32(IN_EXCL_UNLINK))
        }
    }

    /// Watches the folder at `path` for `mask`, not following a last link, only if it is a
    /// folder, dropping events of names unlinked from it; ENOSPC when the watch limit is reached.
    public func watch(path: String, mask: UInt32) throws(SystemCallError) -> Int32 {
        try requireSystemCall("inotify_add_watch") {
            inotify_add_watch(fd, path, mask | UInt32(IN_ONLYDIR) | UInt32(IN_EXCL_UNLINK) | UInt32(IN_DONT_FOLLOW))
        }
    }

    /// Stops a watch; nothing when it is gone already.
    public func removeWatch(_ watch: Int32) { _ = inotify_rm_watch(fd, watch) }

    /// Reads queued events into `buffer`: the bytes read, or nil when none are waiting (or the
    /// read failed).
    public func readEvents(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard case .done(let count)? = try? systemCall("read", { read(fd, buffer.baseAddress, buffer.count) }), count > 0 else { return nil }
        return count
    }

    public func close() { _ = Glibc.close(fd) }
}
