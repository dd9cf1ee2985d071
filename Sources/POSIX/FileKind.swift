#if canImport(Glibc)
import Glibc
#endif

/// What a file is, from its status (`stat.fileKind`) or its folder entry
/// (`DirectoryEntry.fileKind`), so that no other module needs the C headers' type bits.
public enum FileKind: Sendable, Hashable {
    case regular
    case directory
    case symbolicLink
    /// A FIFO, a socket or a device.
    case other
    /// A folder entry whose file system does not say (DT_UNKNOWN): look at its status.
    case unknown

    /// The kind of file type bits (`st_mode & S_IFMT`).
    @inlinable
    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// The kind of a `d_type` of `readdir`.
    @inlinable
    public init(entryType: UInt8) {
        switch Int(entryType) {
        case DT_REG: self = .regular
        case DT_DIR: self = .directory
        case DT_LNK: self = .symbolicLink
        case DT_UNKNOWN: self = .unknown
        default: self = .other
        }
    }
}
