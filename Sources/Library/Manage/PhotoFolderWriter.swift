import Foundation
import POSIX

/// Every change PhotoScroll makes in the photos folder goes through here, and stays inside it:
/// folders are opened one component at a time from the root with `O_NOFOLLOW` (a symbolic
/// link on the way is refused, never followed out), made when missing, and files are put in
/// place with `linkat`/`renameat` relative to those descriptors, never over an existing name.
public struct PhotoFolderWriter: Sendable {
    /// Absolute path of the photos folder.
    public let root: String

    public init(root: String) { self.root = root }

    /// The components of a relative path, each checked: not empty, not `.` or `..`, not hidden,
    /// no NUL, at most 255 bytes; at most 64 deep. "" is the root.
    public static func components(_ relative: String) throws(FolderWriteError) -> [String] {
        if relative.isEmpty { return [] }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 64 else { throw .invalidPath(relative) }
        for part in parts {
            guard !part.isEmpty, part != ".", part != "..", !part.hasPrefix("."), !part.utf8.contains(0), part.utf8.count <= 255 else {
                throw .invalidPath(relative)
            }
        }
        return parts
    }

    /// Opens the folder at `relative` (made, with any missing parents, when `create`), walking
    /// from the root without following any link.
    public func openFolder(_ relative: String, create: Bool) throws(FolderWriteError) -> FileDescriptor {
        let parts = try Self.components(relative)
        var current: FileDescriptor
        do { current = try FileDescriptor.open(root, OpenFlags.readOnly | OpenFlags.directory) } catch { throw FolderWriteError.from(error, path: "") }
        var walked = ""
        for part in parts {
            walked = walked.isEmpty ? part : walked + "/" + part
            let next: FileDescriptor
            do {
                next = try Self.openChild(current, part, create: create)
            } catch {
                current.close()
                throw FolderWriteError.from(error, path: walked)
            }
            current.close()
            current = next
        }
        return current
    }

    private static func openChild(_ parent: FileDescriptor, _ name: String, create: Bool) throws(SystemCallError) -> FileDescriptor {
        let flags = OpenFlags.readOnly | OpenFlags.directory | OpenFlags.noFollow
        do throws(SystemCallError) { return try parent.open(name, flags) } catch {
            guard error.errno == Errno.noSuchFile, create else { throw error }
        }
        do throws(SystemCallError) { try parent.makeDirectory(name, permissions: 0o777) } catch {
            guard error.errno == Errno.fileExists else { throw error }
        }
        // The folder just made is synced into its parent, so a crash cannot lose the path to a photo.
        _ = try? parent.synchronize()
        return try parent.open(name, flags)
    }

    /// Puts the complete file at `source` (outside the photos folder, in the data folder) into
    /// `folder` as `name`, or as `name (2)`, `name (3)` … when that is taken, and returns its
    /// relative path. Within one file system the file is linked in place (atomic, never over
    /// another file) and `source` removed; across file systems it is copied to a hidden name in
    /// the folder, synced, then linked the same way, so a half-copied photo never has a visible
    /// name. The folder is synced before this returns.
    public func place(_ source: String, in folder: String, as name: String) throws(FolderWriteError) -> String {
        _ = try Self.components(name)
        let destination = try openFolder(folder, create: true)
        defer { destination.close() }
        let prefix = folder.isEmpty ? "" : folder + "/"
        let placed: String
        if let linked = try link(.currentDirectory, source, into: destination, as: name) {
            placed = linked
        } else {
            // Another file system: copy beside the destination under a hidden name first.
            let hidden = ".photoscroll-upload-\(System.processID)-\(UInt64.random(in: 0...UInt64.max))"
            do { try copy(source, into: destination, as: hidden) } catch {
                if case .notAFile = error { throw .notAFile(name) }
                throw error
            }
            let linked: String?
            do { linked = try link(destination, hidden, into: destination, as: name) } catch {
                try? destination.removeFile(hidden)
                throw error
            }
            try? destination.removeFile(hidden)
            guard let linked else { throw .system(SystemCallError(call: "linkat", errno: Errno.crossDevice)) }
            placed = linked
        }
        FileSystem.removeFile(source)
        _ = try? destination.synchronize()
        return prefix + placed
    }

    /// Links `source` (relative to `directory`) into `destination` under the first free one of
    /// `name`, `name (2)` …; nil when the two are on different file systems.
    func link(_ directory: FileDescriptor, _ source: String, into destination: FileDescriptor, as name: String) throws(FolderWriteError) -> String? {
        for n in 1...1000 {
            let candidate = n == 1 ? name : Self.numbered(name, n)
            do throws(SystemCallError) {
                try directory.link(source, into: destination, as: candidate)
                return candidate
            } catch {
                switch error.errno {
                case Errno.fileExists: continue
                case Errno.crossDevice: return nil
                default: throw FolderWriteError.from(error, path: candidate)
                }
            }
        }
        throw .invalidPath(name)
    }

    /// `a.jpg` → `a (2).jpg`.
    static func numbered(_ name: String, _ n: Int) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(name) (\(n))" }
        return "\(name[..<dot]) (\(n))\(name[dot...])"
    }

    /// Copies `source` into a new file `name` of `destination` and syncs it; the new file is
    /// removed again when anything fails (a full disk leaves nothing behind).
    /// Only a regular file is copied, never through a link (a trashed photo is whatever was at
    /// its name when it was trashed).
    private func copy(_ source: String, into destination: FileDescriptor, as name: String) throws(FolderWriteError) {
        let input: FileDescriptor
        do {
            let folder = try FileDescriptor.open((source as NSString).deletingLastPathComponent, OpenFlags.readOnly | OpenFlags.directory)
            defer { folder.close() }
            input = try folder.openRegularFile((source as NSString).lastPathComponent)
        } catch { throw FolderWriteError.fromFileOpen(error, path: name) }
        defer { input.close() }
        try copyContents(of: input, into: destination, as: name)
    }

    /// Copies what `input` holds into a new file `name` of `destination`, synced; removed again on failure.
    func copyContents(of input: FileDescriptor, into destination: FileDescriptor, as name: String) throws(FolderWriteError) {
        let output: FileDescriptor
        do {
            output = try destination.open(name, OpenFlags.writeOnly | OpenFlags.create | OpenFlags.exclusive | OpenFlags.noFollow, permissions: 0o666)
        } catch {
            throw FolderWriteError.from(SystemCallError(call: "openat", errno: error.errno), path: name)
        }
        defer { output.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        do {
            while true {
                let count = try input.read(into: buffer)
                if count == 0 { break }
                try output.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            try output.synchronize()
        } catch {
            try? destination.removeFile(name)
            throw FolderWriteError.from(error, path: name)
        }
    }
}
