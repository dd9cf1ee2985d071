#if canImport(Glibc)
import Glibc
#endif

/// A file's status as `stat`, `lstat` and `fstat` give it.
public typealias FileStatus = stat

extension FileStatus {
    /// The file type bits: `S_IFREG`, `S_IFDIR`, `S_IFLNK`, …
    public var kind: mode_t { st_mode & S_IFMT }

    /// What the file is.
    @inlinable public var fileKind: FileKind { FileKind(mode: st_mode) }

    /// Whether it is a regular file (not a folder, a link, a FIFO, a device or a socket).
    @inlinable public var isRegularFile: Bool { st_mode & S_IFMT == S_IFREG }

    /// The device the file is on.
    @inlinable public var device: UInt64 { UInt64(st_dev) }

    /// The inode number.
    @inlinable public var inode: UInt64 { UInt64(st_ino) }

    /// The size in bytes.
    @inlinable public var size: Int { Int(st_size) }

    /// The last modification, in nanoseconds since 1970.
    @inlinable public var modifiedNanoseconds: Int { Int(st_mtim.tv_sec) * 1_000_000_000 + Int(st_mtim.tv_nsec) }

    /// The last modification, in whole seconds since 1970.
    @inlinable public var modifiedSeconds: Int { Int(st_mtim.tv_sec) }
}
