#if canImport(Glibc)
import Glibc
#endif

/// Calls on paths rather than open files: link status, the real path, folders and removals.
public enum FileSystem {
    /// The status of `path` itself, the link when it is one (lstat). Runs for every static
    /// file request: withCString hands over the string's own bytes, where passing `path` itself
    /// would build a C copy.
    public static func linkStatus(_ path: String) throws(SystemCallError) -> FileStatus {
        var info = FileStatus()
        do {
            try requireSystemCall("lstat") { path.withCString { lstat($0, &info) } }
        } catch {
            throw SystemCallError(call: "lstat(\(path))", errno: error.errno)
        }
        return info
    }

    /// The path with every symbolic link, `.` and `..` resolved (realpath), or nil when some
    /// component does not exist or cannot be looked at.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Makes the folder `path` with `permissions`; nothing when it is there already.
    public static func makeDirectoryIfMissing(_ path: String, permissions: mode_t = 0o777) throws(SystemCallError) {
        if mkdir(path, permissions) != 0 {
            let code = errno
            if code != EEXIST { throw SystemCallError(call: "mkdir(\(path))", errno: code) }
        }
    }

    /// Makes the folder `path` with `permissions`; EEXIST when something is there already.
    public static func makeDirectory(_ path: String, permissions: mode_t = 0o777) throws(SystemCallError) {
        if mkdir(path, permissions) != 0 { throw SystemCallError(call: "mkdir(\(path))", errno: errno) }
    }

    /// Renames `from` to `to` (rename(2): atomic within one file system, replacing a file or an
    /// empty folder at `to`).
    public static func rename(_ from: String, to: String) throws(SystemCallError) {
        if Glibc.rename(from, to) != 0 { throw SystemCallError(call: "rename(\(from))", errno: errno) }
    }

    /// Makes `to` another name of the file at `from` (link(2)); EXDEV across file systems.
    public static func hardLink(_ from: String, at to: String) throws(SystemCallError) {
        if link(from, to) != 0 { throw SystemCallError(call: "link(\(from))", errno: errno) }
    }

    /// Whether something is at `path`, links followed (access with F_OK).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether the file at `path` can be read by this process, links followed (access with R_OK).
    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// Deletes the file (not a folder) at `path`; false when it could not (gone already, say).
    @discardableResult
    public static func removeFile(_ path: String) -> Bool { unlink(path) == 0 }
}
