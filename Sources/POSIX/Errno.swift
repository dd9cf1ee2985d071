#if canImport(Glibc)
import Glibc
#endif

/// The errno values other modules tell apart in a `SystemCallError` (`error.errno ==
/// Errno.connectionReset`), named so that none of them needs the C headers. Computed and
/// inlinable: each is the constant itself where it is used.
public enum Errno {
    /// EAGAIN (EWOULDBLOCK): the call would block; a lock another holder has.
    @inlinable public static var wouldBlock: Int32 { EAGAIN }
    /// EACCES: permission denied; also a lock another holder has, for some locks.
    @inlinable public static var permissionDenied: Int32 { EACCES }
    /// ECONNABORTED: a connection was gone before it was accepted.
    @inlinable public static var connectionAborted: Int32 { ECONNABORTED }
    /// ECONNRESET: the peer reset the connection.
    @inlinable public static var connectionReset: Int32 { ECONNRESET }
    /// EPIPE: the peer closed the connection before all was written.
    @inlinable public static var brokenPipe: Int32 { EPIPE }
    /// EEXIST: the file or folder is there already.
    @inlinable public static var fileExists: Int32 { EEXIST }
    /// ENOENT: no such file or folder.
    @inlinable public static var noSuchFile: Int32 { ENOENT }
    /// ENOTDIR: a component of the path is not a folder.
    @inlinable public static var notDirectory: Int32 { ENOTDIR }
    /// ELOOP: a link where none may be followed (O_NOFOLLOW), or too many links.
    @inlinable public static var tooManyLinks: Int32 { ELOOP }
    /// EINVAL: an argument the call refuses (a name that is no regular file, for `openRegularFile`).
    @inlinable public static var invalidArgument: Int32 { EINVAL }
    /// EIO: an input/output error.
    @inlinable public static var ioError: Int32 { EIO }
    /// ENOSPC: no space left on the device.
    @inlinable public static var noSpace: Int32 { ENOSPC }
    /// ENOTEMPTY: a folder still holds something.
    @inlinable public static var directoryNotEmpty: Int32 { ENOTEMPTY }
    /// EXDEV: the two paths are on different file systems.
    @inlinable public static var crossDevice: Int32 { EXDEV }
    /// EDQUOT: the user's disk quota is used up.
    @inlinable public static var quotaExceeded: Int32 { EDQUOT }
    /// EFBIG: the file would grow past the largest size allowed.
    @inlinable public static var fileTooLarge: Int32 { EFBIG }
    /// EMFILE: the process has no descriptor left.
    @inlinable public static var tooManyOpenFiles: Int32 { EMFILE }
}
