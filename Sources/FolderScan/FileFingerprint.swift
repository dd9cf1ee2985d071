import POSIX

/// How a file looked when last seen (one `stat`); an unchanged fingerprint means unchanged bytes.
public struct FileFingerprint: Hashable, Sendable {
    public var size: Int
    /// Modification time in nanoseconds since the epoch.
    public var modified: Int
    public var inode: Int

    public init(size: Int, modified: Int, inode: Int) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }
}

extension FileFingerprint {
    /// How the file `info` describes looks.
    public init(_ info: FileStatus) {
        self.init(size: info.size, modified: info.modifiedNanoseconds, inode: Int(info.inode))
    }
}
