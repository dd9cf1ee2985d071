import POSIX

/// A file as it is on disk now: any change of inode, size or mtime makes it another file.
struct FileIdentity: Hashable, Sendable {
    var path: String
    var inode: UInt64
    var size: Int
    var modifiedNanoseconds: Int

    init(path: String, info: FileStatus) {
        self.path = path
        inode = info.inode
        size = info.size
        modifiedNanoseconds = info.modifiedNanoseconds
    }

    var modifiedSeconds: Int { modifiedNanoseconds / 1_000_000_000 }

    /// Whether `info` describes this same file (path aside): the check every cache hit makes.
    func isSameFile(as info: FileStatus) -> Bool {
        inode == info.inode && size == info.size && modifiedNanoseconds == info.modifiedNanoseconds
    }

    /// A strong validator from inode, size and mtime.
    var entityTag: String {
        "\"\(String(inode, radix: 16))-\(String(size, radix: 16))-\(String(modifiedNanoseconds, radix: 16))\""
    }
}
