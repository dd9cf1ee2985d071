#if canImport(Glibc)
import Glibc
#endif

/// The C library's byte searches and comparisons (memchr, memcmp), which look at many bytes per
/// step where a Swift loop looks at one. Inlined to the C call: the parser and the router use
/// them on every request. And the NUL-terminated copies C libraries (libpq, libvips) read.
public enum Memory {
    /// A NUL-terminated copy of `text` that stays put until the caller deallocates it (`deallocate()`).
    public static func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = text.utf8CString
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { copy.initialize(from: $0.baseAddress!, count: $0.count) }
        return copy
    }

    /// Whether the `count` bytes at `a` and at `b` are the same.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }

    /// Where `byte` first occurs in the `count` bytes from `start`, or nil.
    @inlinable @inline(__always)
    public static func first(_ byte: UInt8, in start: UnsafeRawPointer, count: Int) -> UnsafeRawPointer? {
        UnsafeRawPointer(memchr(start, Int32(byte), count))
    }
}
