#if canImport(Glibc)
import Glibc
#endif
import POSIX

/// The folder in the data folder where uploads' bytes wait until they are complete
/// (`<data>/uploads/<id>`), and the few file operations an upload needs. Nothing here ever
/// touches the photos folder: a half-written upload never shows there.
public struct UploadFiles: Sendable {
    /// Absolute or relative path of the folder.
    public let directory: String

    /// Makes the folder when it is missing.
    public init(directory: String) throws(SystemCallError) {
        self.directory = directory
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { throw SystemCallError(call: "mkdir(\(directory))", errno: errno) }
    }

    /// Where an upload's bytes are.
    public func path(_ id: UploadID) -> String { directory + "/" + id.text }

    /// Makes the empty file of a new upload.
    public func create(_ id: UploadID) throws(SystemCallError) {
        let fd = try FileDescriptor.open(path(id), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions: 0o600)
        fd.close()
    }

    /// Opens an upload's file to write at any offset.
    public func openForWriting(_ id: UploadID) throws(SystemCallError) -> FileDescriptor {
        try FileDescriptor.open(path(id), O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
    }

    /// How many bytes the file holds, or nil when it is gone.
    public func size(_ id: UploadID) -> Int? {
        var info = stat()
        guard lstat(path(id), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Deletes an upload's bytes; nothing when they are gone already.
    public func remove(_ id: UploadID) {
        unlink(path(id))
    }
}

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
