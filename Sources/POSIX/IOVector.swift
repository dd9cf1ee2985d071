#if canImport(Glibc)
import Glibc
#endif

/// One buffer of a gathered write (`struct iovec`), as `Socket.writev` takes them.
public typealias IOVector = iovec

extension IOVector {
    /// The vector over `bytes`, which must stay alive and unmodified until the write returns.
    @inlinable @inline(__always)
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.init(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
    }

    /// The vector over `count` bytes from `start`, which must stay alive and unmodified until the
    /// write returns.
    @inlinable @inline(__always)
    public init(start: UnsafeRawPointer, count: Int) {
        self.init(iov_base: UnsafeMutableRawPointer(mutating: start), iov_len: count)
    }
}
