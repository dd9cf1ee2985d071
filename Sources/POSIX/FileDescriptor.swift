#if canImport(Glibc)
import Glibc
#endif

/// An open file: the calls Library, Imaging and the static file cache make on files, each
/// through `requireSystemCall` (EINTR retried, failures thrown as `SystemCallError`).
/// A plain value: whoever opens it closes it, once.
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` with `flags` (O_CLOEXEC is always added); `permissions` apply with O_CREAT.
    public static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0o666) throws(SystemCallError) -> FileDescriptor {
        do {
            return FileDescriptor(rawValue: try requireSystemCall("open") { Glibc.open(path, flags | O_CLOEXEC, permissions) })
        } catch {
            throw SystemCallError(call: "open(\(path))", errno: error.errno)
        }
    }

    public func close() { _ = Glibc.close(rawValue) }

    /// A second descriptor of the same open file (O_CLOEXEC), closed on its own: what lets work
    /// that outlives its caller keep reading the very file the caller opened. The two share the
    /// file position, so both should read at offsets (pread) only.
    public func duplicate() throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: try requireSystemCall("fcntl(F_DUPFD_CLOEXEC)") { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) })
    }

    /// Reads up to `buffer.count` bytes at the file position; 0 means end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try requireSystemCall("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Fills `buffer` from `offset`, call after call; fewer bytes only when the file ends first.
    public func read(into buffer: UnsafeMutableRawBufferPointer, fromOffset offset: Int) throws(SystemCallError) -> Int {
        var done = 0
        while done < buffer.count {
            let n = try requireSystemCall("pread") {
                pread(rawValue, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Writes all of `bytes`, call after call.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            done += try requireSystemCall("write") { Glibc.write(rawValue, bytes.baseAddress! + done, bytes.count - done) }
        }
    }

    /// The file's status (size, type, inode).
    public func status() throws(SystemCallError) -> stat {
        var info = stat()
        try requireSystemCall("fstat") { fstat(rawValue, &info) }
        return info
    }

    /// flock(2): `LOCK_SH`, `LOCK_EX` (waiting for the lock), either with `LOCK_NB` (not waiting:
    /// EWOULDBLOCK then means another holder), or `LOCK_UN`.
    public func lock(_ operation: Int32) throws(SystemCallError) {
        try requireSystemCall("flock") { flock(rawValue, operation) }
    }

    /// The whole file, or nil when it is not there, cannot be read, or ends before the size it
    /// reported (it changed while being read).
    public static func contents(ofFile path: String) -> [UInt8]? {
        guard let file = try? open(path, O_RDONLY) else { return nil }
        defer { file.close() }
        guard let size = try? Int(file.status().st_size) else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let read = try? bytes.withUnsafeMutableBytes { buffer in try file.read(into: buffer, fromOffset: 0) }
        return read == size ? bytes : nil
    }
}

/// The status of the file at `path`, following symlinks.
public func fileStatus(_ path: String) throws(SystemCallError) -> stat {
    var info = stat()
    do {
        try requireSystemCall("stat") { stat(path, &info) }
    } catch {
        throw SystemCallError(call: "stat(\(path))", errno: error.errno)
    }
    return info
}
