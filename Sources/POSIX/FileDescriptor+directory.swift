#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// Opens `name` in the folder open at `self` (O_CLOEXEC is always added); `permissions` apply
    /// with O_CREAT.
    public func open(_ name: String, _ flags: Int32, permissions: mode_t = 0o666) throws(SystemCallError) -> FileDescriptor {
        do {
            return FileDescriptor(rawValue: try requireSystemCall("openat") { openat(rawValue, name, flags | O_CLOEXEC, permissions) })
        } catch {
            throw SystemCallError(call: "openat(\(name))", errno: error.errno)
        }
    }

    /// Opens `name` in the folder open at `self` for reading only when it is a regular file, and
    /// not through a link: looked at first (O_PATH, which opens nothing), then opened by name and
    /// taken only when it is the file looked at. A FIFO, a device or a socket is never opened for
    /// reading (a FIFO would block the open, a device could be read for ever); EINVAL says it
    /// was something else, ELOOP that it was a link.
    public func openRegularFile(_ name: String) throws(SystemCallError) -> FileDescriptor {
        let reference = try open(name, O_PATH | O_NOFOLLOW)
        defer { reference.close() }
        let status = try reference.status()
        if status.kind == S_IFLNK { throw SystemCallError(call: "openat(\(name))", errno: ELOOP) }
        guard status.kind == S_IFREG else { throw SystemCallError(call: "openat(\(name))", errno: EINVAL) }
        let readable = try open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        let again: stat
        do { again = try readable.status() } catch {
            readable.close()
            throw error
        }
        guard again.st_dev == status.st_dev, again.st_ino == status.st_ino else {
            readable.close()
            throw SystemCallError(call: "openat(\(name))", errno: EINVAL)
        }
        return readable
    }

    /// The status of `name` in the folder open at `self`, the link itself when it is one.
    public func status(of name: String) throws(SystemCallError) -> stat {
        var info = stat()
        try requireSystemCall("fstatat") { fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }
        return info
    }

    /// What the symbolic link open at `self` (O_PATH | O_NOFOLLOW) says; nil when it says more
    /// than PATH_MAX bytes.
    public func linkTarget() throws(SystemCallError) -> [UInt8]? {
        let capacity = Int(PATH_MAX) + 1
        var buffer = [UInt8](repeating: 0, count: capacity)
        let length = try requireSystemCall("readlinkat") {
            buffer.withUnsafeMutableBytes { readlinkat(rawValue, "", $0.baseAddress!.assumingMemoryBound(to: CChar.self), capacity) }
        }
        guard length < capacity else { return nil }
        return Array(buffer[..<length])
    }

    /// Calls `body` for every entry of the folder open at `self` (an O_PATH descriptor will do),
    /// `.` and `..` left out, until `body` returns false. `self` stays open and unmoved: the
    /// folder is read through a descriptor of its own. Names are read in place, never by copying
    /// a whole `struct dirent`, which for a short name at the end of libc's buffer reads past it.
    public func forEachEntry(_ body: (DirectoryEntry) throws -> Bool) throws {
        let own = try requireSystemCall("openat") { openat(rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard let stream = fdopendir(own) else {
            let failure = errno
            Glibc.close(own)
            throw SystemCallError(call: "fdopendir", errno: failure)
        }
        defer { closedir(stream) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let typeOffset = MemoryLayout<dirent>.offset(of: \dirent.d_type)!
        let lengthOffset = MemoryLayout<dirent>.offset(of: \dirent.d_reclen)!
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemCallError(call: "readdir", errno: errno) }
                return
            }
            let record = UnsafeRawPointer(entry)
            let recordLength = Int(record.loadUnaligned(fromByteOffset: lengthOffset, as: UInt16.self))
            let type = record.load(fromByteOffset: typeOffset, as: UInt8.self)
            let start = record + nameOffset
            let length = strnlen(start.assumingMemoryBound(to: CChar.self), max(0, recordLength - nameOffset))
            let name = UnsafeRawBufferPointer(start: start, count: length)
            if length <= 2 && name.allSatisfy({ $0 == UInt8(ascii: ".") }) && length > 0 { continue }
            if try !body(DirectoryEntry(name: name, type: type)) { return }
        }
    }
}
