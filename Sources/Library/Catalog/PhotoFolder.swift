// The walk's names and listing (FileFingerprint, FolderListing, NaturalOrder) are part of what
// Library offers: they live in FolderScan so the walk can be fuzzed without the rest of Library.
@_exported import FolderScan
import Foundation
import Imaging
import POSIX

/// The photos folder on disk: which files are photos, and how each looks right now. Every file
/// and folder below it is opened through `confinement`, never by a path the kernel resolves on
/// its own, so nothing outside it is listed, read or served, whatever a link says.
public struct PhotoFolder: Sendable {
    /// Extensions libvips can read, compared case-insensitively.
    public static let extensions = PhotoNames.extensions
    /// Folders deeper than this below the photos folder are not listed (nor watched).
    public static let maxDepth = PhotoNames.maxDepth

    /// Absolute path of the folder.
    public let root: String
    /// Where paths below the folder may lead: the folder itself and the extra roots its links
    /// may point into (`extraRoots` in the configuration).
    public let confinement: Confinement
    /// The devices the last scans walked: a photo is only read from one of them.
    let devices = ScannedDevices()

    public init(root: String, extraRoots: [String] = []) {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.path
        self.confinement = Confinement(root: self.root, extraRoots: extraRoots)
    }

    /// Opens a listed photo's file to read, beneath the folder, and only if it is the file the
    /// scan listed: the same inode as `expected` (when given) on a device a scan walked. A file
    /// replaced since (by a link out, by another file) is refused until a scan has looked at it.
    /// Throws `ImagingError`s, in words about the library.
    public func openPhoto(_ relativePath: String, expected: FileFingerprint?) throws -> Confinement.Opened {
        do { return try openListed(relativePath, expected: expected) } catch { throw error.imagingError(relativePath) }
    }

    /// Why a listed file was not opened.
    enum ListedFileError: Error {
        case outside, loop, notRegular, missing, replaced
        case failed(ConfinementError)

        func imagingError(_ path: String) -> ImagingError {
            switch self {
            case .outside: .io("\(path) is a link that leads outside the photos folder")
            case .loop: .io("\(path) goes through a loop of links")
            case .notRegular: .notAnImage("not a regular file")
            case .missing: .io("\(path) is no longer in the photos folder")
            case .replaced: .io("\(path) is another file than the one listed; it is looked at again")
            case .failed(let error): .io("\(path): \(error)")
            }
        }
    }

    func openListed(_ relativePath: String, expected: FileFingerprint?) throws(ListedFileError) -> Confinement.Opened {
        let opened: Confinement.Opened
        do {
            opened = try confinement.openFile(relativePath)
        } catch {
            switch error {
            case .outside: throw .outside
            case .tooManyLinks: throw .loop
            case .notOfKind(_, _, let kind) where FileKind(mode: kind) != .directory: throw .notRegular
            case _ where error.isMissing: throw .missing
            default: throw .failed(error)
            }
        }
        let status = opened.status
        if let expected, expected.inode != Int(status.st_ino) || !devices.allows(Int(status.st_dev)) {
            opened.descriptor.close()
            throw .replaced
        }
        return opened
    }

    /// `openPhoto` as the renderer takes it: opened anew, and checked again, at every read.
    public func source(_ relativePath: String, expected: FileFingerprint?) -> PhotoSource {
        PhotoSource(name: relativePath) { try openPhoto(relativePath, expected: expected).descriptor }
    }

    /// Whether a file name looks like a photo (by extension; hidden files never do).
    public static func isPhotoName(_ name: String) -> Bool { PhotoNames.isPhotoName(name) }

    /// Lists `directories` (relative; "" is the folder itself), each alone or with everything below
    /// it, hidden files and folders skipped (see `FolderWalk`). Folders are read with `readdir`,
    /// whose entry types spare a `stat` for everything but photo files (one each, for the
    /// fingerprint) and symbolic links (resolved beneath the folder).
    public func list(_ directories: [String], recursive: Bool) -> FolderListing {
        FolderWalk(confinement: confinement, listsFiles: true).run(directories, recursive: recursive)
    }

    /// Everything below the folder.
    func listAll() -> FolderListing { list([""], recursive: true) }

    /// The absolute path of a relative one, for messages (files are opened through `confinement`).
    public func absolute(_ relativePath: String) -> String { root + "/" + relativePath }

    /// Size, modification time and inode of the file a relative path leads to (through links that
    /// stay beneath the folder), or nil when it is gone or leads elsewhere.
    public func fingerprint(_ relativePath: String) -> FileFingerprint? {
        guard let status = try? confinement.status(relativePath), status.isRegularFile else { return nil }
        return FileFingerprint(status)
    }

    /// The path of `path` relative to the folder, or nil when it lies outside.
    public func relativePath(of path: String) -> String? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let base = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        guard absolute.hasPrefix(base + "/") else { return nil }
        return String(absolute.dropFirst(base.count + 1))
    }

    /// The folder of a relative path: `a/b/c.jpg` → `a/b`, `c.jpg` → "".
    public static func parent(of relativePath: String) -> String {
        guard let slash = relativePath.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(relativePath[..<slash])
    }

    /// Whether `relativePath` lies in `directory` or anywhere below it ("" holds everything).
    static func isWithin(_ relativePath: String, _ directory: String) -> Bool {
        directory.isEmpty || (relativePath.hasPrefix(directory) && relativePath.utf8.dropFirst(directory.utf8.count).first == UInt8(ascii: "/"))
    }
}

extension RenderSettings {
    /// A photo's version: its content hash and these settings, shortened to 12 hex digits.
    func version(contentHash: String) -> String { VersionNames(self).version(contentHash: contentHash) }

    /// The version of a file not hashed yet (see `VersionNames.provisionalVersion`).
    func provisionalVersion(path: String, fingerprint: FileFingerprint) -> String {
        VersionNames(self).provisionalVersion(path: path, fingerprint: fingerprint)
    }
}
