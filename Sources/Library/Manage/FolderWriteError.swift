import Foundation
import POSIX

/// Why a change to the photos folder was refused or failed.
public enum FolderWriteError: Error, Equatable, CustomStringConvertible {
    /// A relative path that is not a plain path beneath the folder (empty, `..`, hidden, too long…).
    case invalidPath(String)
    /// A symbolic link (or something that is not a folder) where a folder was to be: never followed.
    case notAFolder(String)
    /// Nothing at that path.
    case missing(String)
    /// Something other than a regular file (a FIFO, a device, a socket, a link) where a photo was
    /// to be read: never opened for reading.
    case notAFile(String)
    /// The disk or the user's quota is full.
    case full
    /// Any other failure of the system.
    case system(SystemCallError)

    public var description: String {
        switch self {
        case .invalidPath(let path): "\"\(path)\" is not a path of a folder or file in the photos folder."
        case .notAFolder(let path): "\(path) is not a folder of the photos folder."
        case .missing(let path): "There is nothing at \(path) in the photos folder."
        case .notAFile(let path): "\(path) is not a photo file of the photos folder."
        case .full: "The disk is full."
        case .system(let error): "The photos folder could not be changed (\(error.reason))."
        }
    }

    static func from(_ error: SystemCallError, path: String) -> FolderWriteError {
        switch error.errno {
        case Errno.noSpace, Errno.quotaExceeded, Errno.fileTooLarge: .full
        case Errno.tooManyLinks, Errno.notDirectory: .notAFolder(path)
        case Errno.noSuchFile: .missing(path)
        default: .system(error)
        }
    }

    /// For an open of a file to read: what is not a regular file (EINVAL, ELOOP from
    /// `openRegularFile`) is `.notAFile`.
    static func fromFileOpen(_ error: SystemCallError, path: String) -> FolderWriteError {
        error.errno == Errno.invalidArgument || error.errno == Errno.tooManyLinks ? .notAFile(path) : from(error, path: path)
    }
}
