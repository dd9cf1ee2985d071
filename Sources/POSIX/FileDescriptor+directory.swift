#if canImport(Glibc)
import Glibc
#endif

/// One entry of a folder, as `readdir` gives it.
public struct DirectoryEntry {
    /// The name's bytes, without the terminating NUL; valid only while the callback runs.
    public let name: UnsafeRawBufferPointer
    /// `d_type`: `DT_DIR`, `DT_REG`, `DT_LNK`, `DT_UNKNOWN` (the file system does not say), …
    public let type: UInt8

    /// The name, or nil when its bytes are not UTF-8 (such a name cannot be spelled in a path
    /// String without changing which file it names).
    public var text: String? { String(validating: name, as: UTF8.self) }

    /// Whether the name starts with a dot (hidden, and `.` and `..`).
    public var isHidden: Bool { name.first == UInt8(ascii: ".") }
}

extension FileDescriptor {
    /// Opens `name` in the folder open at `self` (O_CLOEXEC is always added).
    public func open(_ name: String, _ flags: Int32) throws(SystemCallError) -> FileDescriptor {
        do {
            return FileDescriptor(rawValue: try requireSystemCall("openat") { openat(rawValue, name, flags | O_CLOEXEC) })
        } catch {
            throw SystemCallError(call: "openat(\(name))", errno: error.errno)
        }
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

extension stat {
    /// The file type bits: `S_IFREG`, `S_IFDIR`, `S_IFLNK`, …
    public var kind: mode_t { st_mode & S_IFMT }
}
