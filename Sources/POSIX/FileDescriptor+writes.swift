#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// Writes all of `bytes` at `offset`; throws (ENOSPC, EIO…) with whatever did fit left in the
    /// file, and says how much that was through `written`.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int, written: inout Int) throws(SystemCallError) {
        written = 0
        while written < bytes.count {
            let count = try requireSystemCall("pwrite") {
                pwrite(rawValue, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
            }
            if count == 0 { throw SystemCallError(call: "pwrite", errno: EIO) }
            written += count
        }
    }

    /// `write(_:at:written:)` for bytes in an array.
    public func write(_ bytes: [UInt8], at offset: Int, written: inout Int) throws(SystemCallError) {
        var failure: SystemCallError?
        var count = 0
        bytes.withUnsafeBytes { buffer in
            do throws(SystemCallError) { try write(buffer, at: offset, written: &count) } catch { failure = error }
        }
        written = count
        if let failure { throw failure }
    }

    /// Cuts the file to `length` bytes.
    public func truncate(to length: Int) throws(SystemCallError) {
        try requireSystemCall("ftruncate") { ftruncate(rawValue, off_t(length)) }
    }

    /// Waits until the file's bytes are on the disk.
    public func synchronizeData() throws(SystemCallError) {
        try requireSystemCall("fdatasync") { fdatasync(rawValue) }
    }
}
