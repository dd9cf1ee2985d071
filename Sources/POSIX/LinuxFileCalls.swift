#if canImport(Glibc)
import Glibc
#endif
private import CShims

// The only file of POSIX that sees our C shims: openat2(2), which Glibc does not wrap.

/// openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS (see `Confinement`); -1 and errno as the
/// kernel leaves them, ENOSYS where it has no openat2 (before Linux 5.6).
func openat2Beneath(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 {
    cshims_openat2_beneath(directory, path, flags | O_CLOEXEC)
}

/// Opens a reference to a file or folder without opening it for reading or writing: enough
/// to look at it (fstat), read a link, or resolve names beneath it. Not in Glibc's overlay.
public let O_PATH: Int32 = cshims_o_path()
