#if canImport(Glibc)
import Glibc
#endif

// The calls that change a folder open at `self`, by names relative to it (mkdirat, linkat,
// renameat, unlinkat), and fsync: what the photos folder's writer makes its safe writes of.
// None of them follows a symbolic link at the name it is given.

extension FileDescriptor {
    /// The process's working directory (AT_FDCWD) as a folder: a path relative to it, or an
    /// absolute one, is what a name means to the calls below. Never to be closed.
    public static var currentDirectory: FileDescriptor { FileDescriptor(rawValue: AT_FDCWD) }

    /// Makes the folder `name` in the folder open at `self`; EEXIST when something is there.
    public func makeDirectory(_ name: String, permissions: mode_t = 0o777) throws(SystemCallError) {
        do {
            try requireSystemCall("mkdirat") { mkdirat(rawValue, name, permissions) }
        } catch {
            throw SystemCallError(call: "mkdirat(\(name))", errno: error.errno)
        }
    }

    /// Gives the file `name` of the folder open at `self` the further name `newName` in the
    /// folder open at `destination` (linkat, not through a link at `name`): atomic, never over an
    /// existing name (EEXIST), EXDEV when the two folders are on different file systems.
    public func link(_ name: String, into destination: FileDescriptor, as newName: String) throws(SystemCallError) {
        try requireSystemCall("linkat") { linkat(rawValue, name, destination.rawValue, newName, 0) }
    }

    /// Renames `name` of the folder open at `self` to `newName` of the folder open at
    /// `destination` (renameat: atomic within one file system; replaces a file, or an empty
    /// folder, that is there).
    public func rename(_ name: String, into destination: FileDescriptor, as newName: String) throws(SystemCallError) {
        try requireSystemCall("renameat") { renameat(rawValue, name, destination.rawValue, newName) }
    }

    /// Removes the name `name` (a file, or a link itself, never a folder) from the folder open at `self`.
    public func removeFile(_ name: String) throws(SystemCallError) {
        try requireSystemCall("unlinkat") { unlinkat(rawValue, name, 0) }
    }

    /// Removes the empty folder `name` from the folder open at `self`; ENOTEMPTY when it holds anything.
    public func removeDirectory(_ name: String) throws(SystemCallError) {
        try requireSystemCall("unlinkat") { unlinkat(rawValue, name, AT_REMOVEDIR) }
    }

    /// Waits until the file's bytes and its status are on the disk (fsync); for a folder, the
    /// names made in it and taken out of it.
    public func synchronize() throws(SystemCallError) {
        try requireSystemCall("fsync") { fsync(rawValue) }
    }
}
