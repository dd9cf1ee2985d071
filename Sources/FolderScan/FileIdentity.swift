import POSIX

/// A file's device and inode: which file it is, wherever it is named from.
public struct FileIdentity: Hashable, Sendable {
    public var device: Int
    public var inode: Int

    public init(_ status: FileStatus) {
        device = Int(status.device)
        inode = Int(status.st_ino)
    }
}
