#if canImport(Glibc)
import Glibc
#endif

/// The operations of `FileDescriptor.lock` (flock(2)), combined with `|` for `nonBlocking`.
public enum FileLock {
    /// A shared lock: any number of holders, none exclusive.
    @inlinable public static var shared: Int32 { LOCK_SH }
    /// An exclusive lock: one holder, no shared ones.
    @inlinable public static var exclusive: Int32 { LOCK_EX }
    /// With `shared` or `exclusive`: fail with EWOULDBLOCK instead of waiting for the lock.
    @inlinable public static var nonBlocking: Int32 { LOCK_NB }
    /// Releases the lock.
    @inlinable public static var unlock: Int32 { LOCK_UN }
}
