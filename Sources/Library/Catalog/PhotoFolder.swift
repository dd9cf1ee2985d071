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
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Relative paths of every photo below the folder, hidden files and folders skipped,
    /// in name order with numbers compared as numbers (photo2 before photo10).
    public func photoPaths() -> [String] {
        var found: [String] = []
        walk(relative: "", into: &found)
        return found.sorted(by: Self.nameOrder)
    }

    /// photo2 before photo10, then plain byte order to break ties.
    public static func nameOrder(_ a: String, _ b: String) -> Bool {
        let order = a.compare(b, options: [.numeric])
        return order == .orderedSame ? a < b : order == .orderedAscending
    }

    private func walk(relative: String, into found: inout [String]) {
        let directory = relative.isEmpty ? root : root + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard stat(root + "/" + path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                walk(relative: path, into: &found)
            } else if (info.st_mode & S_IFMT) == S_IFREG, Self.isPhotoName(name) {
                found.append(path)
            }
        }
    }

    /// The absolute path of a relative one.
    public func absolute(_ relativePath: String) -> String { root + "/" + relativePath }

    /// Size, modification time and inode of a file, or nil when it is gone.
    public func fingerprint(_ relativePath: String) -> FileFingerprint? {
        var info = stat()
        guard stat(absolute(relativePath), &info) == 0 else { return nil }
        let nanoseconds = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        return FileFingerprint(size: Int(info.st_size), modified: nanoseconds, inode: Int(info.st_ino))
    }

    /// The path of `path` relative to the folder, or nil when it lies outside.
    public func relativePath(of path: String) -> String? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let base = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        guard absolute.hasPrefix(base + "/") else { return nil }
        return String(absolute.dropFirst(base.count + 1))
    }
}

extension RenderSettings {
    /// The settings that change the pixels of a pyramid, as text folded into every version.
    var versionKey: String {
        "t\(tileSize)q\(jpegQuality)s\(thumbnailSize)b\(background.red),\(background.green),\(background.blue)"
    }

    /// A photo's version: its content hash and these settings, shortened to 12 hex digits.
    func version(contentHash: String) -> String {
        String(ContentHash.hex(of: Array((contentHash + "|" + versionKey).utf8)).prefix(12))
    }
}
