#if canImport(Glibc)
import Glibc
#endif

/// The flags of `FileDescriptor.open`, combined with `|` (`OpenFlags.readOnly |
/// OpenFlags.directory`), named so that no other module needs the C headers. O_CLOEXEC is
/// always added by the open itself.
public enum OpenFlags {
    @inlinable public static var readOnly: Int32 { O_RDONLY }
    @inlinable public static var writeOnly: Int32 { O_WRONLY }
    @inlinable public static var readWrite: Int32 { O_RDWR }
    /// Creates the file when it is missing (with the open's `permissions`).
    @inlinable public static var create: Int32 { O_CREAT }
    /// With `create`: fails with EEXIST when the file is there already.
    @inlinable public static var exclusive: Int32 { O_EXCL }
    /// Cuts the file to nothing.
    @inlinable public static var truncate: Int32 { O_TRUNC }
    /// Writes go to the end of the file.
    @inlinable public static var append: Int32 { O_APPEND }
    /// Fails with ENOTDIR unless it is a folder.
    @inlinable public static var directory: Int32 { O_DIRECTORY }
    /// Fails with ELOOP when the last component is a symbolic link.
    @inlinable public static var noFollow: Int32 { O_NOFOLLOW }
    /// Never blocks the open (a FIFO); reads of a regular file ignore it.
    @inlinable public static var nonBlocking: Int32 { O_NONBLOCK }
    /// A terminal opened this way never becomes the controlling one.
    @inlinable public static var noControllingTerminal: Int32 { O_NOCTTY }
}
