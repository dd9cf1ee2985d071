import Foundation
import Imaging

/// Why a file could not be looked at during a scan.
public enum CatalogScanError: Error, CustomStringConvertible {
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .unreadable(let path, let why): "Cannot read \(path): \(why)."
        }
    }
}

/// The photos folder on disk: which files are photos, and how each looks right now.
public struct PhotoFolder: Sendable {
    /// Extensions libvips can read, compared case-insensitively.
    public static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "webp", "tif", "tiff", "gif", "heic", "heif", "avif"]

    /// Absolute path of the folder.
    public let root: String

    public init(root: String) {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.path
    }

    /// Whether a file name looks like a photo (by extension; hidden files never do).
    public static func isPhotoName(_ name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let ext = name.utf8[name.utf8.index(after: dot)...]
        guard (2...4).contains(ext.count) else { return false }
        return extensions.contains(String(decoding: ext.map { $0 | 0x20 }, as: UTF8.self))
    }

    /// Lists `directories` (relative; "" is the folder itself), each alone or with everything below
    /// it, hidden files and folders skipped. Folders are read with `readdir`, whose entry types
    /// spare a `stat` for everything but photo files (one each, for the fingerprint) and
    /// symbolic links (followed, as the photos they point at are photos too).
    public func list(_ directories: [String], recursive: Bool) -> FolderListing {
        var listing = FolderListing()
        var visited: Set<[Int]> = []
        for directory in directories {
            list(relative: directory, recursive: recursive, depth: 0, visited: &visited, into: &listing)
        }
        return listing
    }

    /// Everything below the folder.
    public func listAll() -> FolderListing { list([""], recursive: true) }

    private func list(relative: String, recursive: Bool, depth: Int, visited: inout Set<[Int]>, into listing: inout FolderListing) {
        let path = relative.isEmpty ? root : root + "/" + relative
        guard let directory = opendir(path) else {
            let failure = errno
            listing.directories[relative] = failure == ENOENT || failure == ENOTDIR
                ? .missing : .unreadable(String(cString: strerror(failure)))
            return
        }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        var subdirectories: [String] = []
        var entries = 0
        let prefix = relative.isEmpty ? "" : relative + "/"
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 {
                    // A folder that fails halfway (an I/O error on a failing disk) is not a folder
                    // whose files are gone: what it did list says nothing about the rest.
                    listing.directories[relative] = .unreadable(String(cString: strerror(errno)))
                    return
                }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            if name.hasPrefix(".") { continue }
            entries += 1
            let type = Int32(entry.pointee.d_type)
            if type == DT_DIR {
                if recursive { subdirectories.append(name) }
                continue
            }
            let isPhoto = Self.isPhotoName(name)
            if type == DT_REG && !isPhoto { continue }
            if type != DT_REG && type != DT_LNK && type != DT_UNKNOWN { continue }
            if !isPhoto && !recursive { continue }
            var info = stat()
            listing.stats += 1
            guard fstatat(fd, name, &info, 0) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                // Through a link (or a file system without entry types): guard against loops.
                guard recursive, visited.insert([Int(info.st_dev), Int(info.st_ino)]).inserted else { continue }
                subdirectories.append(name)
            } else if kind == S_IFREG && isPhoto {
                listing.files.append(FolderListing.File(path: prefix + name, fingerprint: FileFingerprint(info)))
            }
        }
        listing.directories[relative] = .listed(entries: entries)
        guard recursive, depth < 64 else { return }
        // Only the few folder names are ordered, so photos new to the catalog are met in name order.
        subdirectories.sort(by: NaturalOrder.less)
        for name in subdirectories {
            list(relative: prefix + name, recursive: true, depth: depth + 1, visited: &visited, into: &listing)
        }
    }

    /// The absolute path of a relative one.
    public func absolute(_ relativePath: String) -> String { root + "/" + relativePath }

    /// Size, modification time and inode of a file, or nil when it is gone.
    public func fingerprint(_ relativePath: String) -> FileFingerprint? {
        var info = stat()
        guard stat(absolute(relativePath), &info) == 0 else { return nil }
        return FileFingerprint(info)
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
    public static func isWithin(_ relativePath: String, _ directory: String) -> Bool {
        directory.isEmpty || (relativePath.hasPrefix(directory) && relativePath.utf8.dropFirst(directory.utf8.count).first == UInt8(ascii: "/"))
    }
}

extension FileFingerprint {
    init(_ info: stat) {
        self.init(size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
                  inode: Int(info.st_ino))
    }
}

/// What one walk of (part of) the photos folder found.
public struct FolderListing: Sendable {
    /// A photo file and how it looks.
    public struct File: Sendable, Hashable {
        public var path: String
        public var fingerprint: FileFingerprint
    }

    /// What a walk found at a folder.
    public enum DirectoryState: Sendable, Equatable {
        /// Read to the end: this many entries, hidden ones not counted.
        case listed(entries: Int)
        /// Not there (or not a folder).
        case missing
        /// There, but could not be read; why.
        case unreadable(String)
    }

    /// Photo files, folders in name order, files within a folder in the order the file system gives.
    public var files: [File] = []
    /// Every folder the walk tried, by relative path ("" is the photos folder).
    public var directories: [String: DirectoryState] = [:]
    /// `stat` calls made: one per photo file, plus one per link or untyped entry.
    public var stats = 0
}

/// Names versions for one set of render settings, the settings' part spelled once (it is folded
/// into every version, and a catalog of 100,000 photos names 100,000 of them at start).
struct VersionNames: Sendable {
    /// The settings that change the pixels of a pyramid, as text.
    let key: String
    /// `|` and the key, as bytes: what follows the content hash in every version's digest.
    private let suffix: [UInt8]

    init(_ settings: RenderSettings) {
        key = "t\(settings.tileSize)q\(settings.jpegQuality)s\(settings.thumbnailSize)b\(settings.background.red),\(settings.background.green),\(settings.background.blue)"
        suffix = Array(("|" + key).utf8)
    }

    /// A photo's version: its content hash and the settings, shortened to 12 hex digits. One
    /// digest over both, gathered on the stack; the 12 digits fit in a String without a buffer.
    func version(contentHash: String) -> String {
        var hash = contentHash
        let value = hash.withUTF8 { hashBytes in
            suffix.withUnsafeBytes { suffixBytes in
                withUnsafeTemporaryAllocation(byteCount: hashBytes.count + suffixBytes.count, alignment: 8) { buffer in
                    let joined = UnsafeMutableRawBufferPointer(buffer)
                    joined.copyMemory(from: UnsafeRawBufferPointer(hashBytes))
                    UnsafeMutableRawBufferPointer(rebasing: joined[hashBytes.count...]).copyMemory(from: suffixBytes)
                    return VersionDigest.digest(of: UnsafeRawBufferPointer(joined))
                }
            }
        }
        return ContentHash.hex(value, digits: 12)
    }

    /// The version of a file not hashed yet: its path and fingerprint stand in for its bytes
    /// (what on-demand renders are cached under until the background hashes it).
    func provisionalVersion(path: String, fingerprint: FileFingerprint) -> String {
        version(contentHash: "unhashed|\(path)|\(fingerprint.size)|\(fingerprint.modified)|\(fingerprint.inode)")
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
