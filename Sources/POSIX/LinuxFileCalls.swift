#if canImport(Glibc)
import Glibc
#endif
private import CShims

// The only file of POSIX that sees our C shims: openat2(2) and sync_file_range(2), which the
// Glibc overlay does not wrap.

/// openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS (see `Confinement`); -1 and errno as the
/// kernel leaves them, ENOSYS where it has no openat2 (before Linux 5.6).
func openat2Beneath(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 {
    cshims_openat2_beneath(directory, path, flags | O_CLOEXEC)
}

/// Opens a reference to a file or folder without opening it for reading or writing: enough
/// to look at it (fstat), read a link, or resolve names beneath it. Not in Glibc's overlay.
public let O_PATH: Int32 = cshims_o_path()

extension FileDescriptor {
    /// Starts writing `length` bytes from `offset` to the disk and returns without waiting
    /// (sync_file_range with SYNC_FILE_RANGE_WRITE): an upload written piece by piece is on its way
    /// to the disk while the next pieces arrive, so the fdatasync at its end finds little to do.
    /// Failures are ignored: the fdatasync that follows reports any that matter.
    public func startWriteback(offset: Int, length: Int) {
        _ = cshims_start_writeback(rawValue, Int64(offset), Int64(length))
    }
}
