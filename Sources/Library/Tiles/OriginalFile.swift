import POSIX

/// A photo's own file, open to be sent as it is.
public struct OriginalFile: Sendable {
    /// Open for reading; whoever takes it closes it.
    public let descriptor: FileDescriptor
    public let size: Int
    /// Modification time, nanoseconds since the epoch.
    public let modifiedNanoseconds: Int
    /// What its first bytes say it is (`image/jpeg`…), not what its name says.
    public let mediaType: String
}
