#if canImport(Glibc)
import Glibc
#endif

/// Why a path beneath a `Confinement` could not be opened.
public enum ConfinementError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A link on the path leads outside the root and every extra root.
    case outside(String)
    /// A loop of links, or more than 40 on one path.
    case tooManyLinks(String)
    /// Something else is there: a FIFO, a socket, a device, a folder where a file was wanted.
    case notOfKind(String, wanted: String, mode_t)
    /// The system call that failed (a missing file is ENOENT).
    case failed(SystemCallError)

    /// Whether nothing is there (or a folder on the way is a file).
    public var isMissing: Bool {
        if case .failed(let error) = self { return error.errno == ENOENT || error.errno == ENOTDIR }
        return false
    }

    public var description: String {
        switch self {
        case .outside(let path): "\(path) is a link that leads outside the folder"
        case .tooManyLinks(let path): "\(path) goes through a loop of links (or more than 40)"
        case .notOfKind(let path, let wanted, let kind): "\(path) is \(Self.name(kind)), not a \(wanted)"
        case .failed(let error): "\(error)"
        }
    }

    static func name(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a folder"
        case S_IFREG: "a regular file"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a link"
        default: "of an unknown kind"
        }
    }
}
