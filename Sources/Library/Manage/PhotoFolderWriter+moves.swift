import Foundation
import POSIX

extension PhotoFolderWriter {
    /// The folder part and the name of a relative file path, each checked.
    static func split(_ relativePath: String) throws(FolderWriteError) -> (folder: String, name: String) {
        let parts = try components(relativePath)
        guard let name = parts.last else { throw .invalidPath(relativePath) }
        return (parts.dropLast().joined(separator: "/"), name)
    }

    /// Moves the photo at `relativePath` into `folder` (made when missing) under its own name, or
    /// the first free `name (n)`; returns its new relative path. The file keeps its inode and
    /// times (linked, then unlinked), so the catalog knows it as the same photo: its id, comments
    /// and pyramid follow it.
    public func move(_ relativePath: String, toFolder folder: String) throws(FolderWriteError) -> String {
        let (from, name) = try Self.split(relativePath)
        if from == folder { return relativePath }
        let source = try openFolder(from, create: false)
        defer { source.close() }
        let destination = try openFolder(folder, create: true)
        defer { destination.close() }
        guard let linked = try link(source, name, into: destination, as: name) else {
            // Two file systems inside one photos folder (a mount point): copy, then remove.
            let placed = try copy(from: source, name, into: destination, as: name)
            try? source.removeFile(name)
            _ = try? source.synchronize()
            return (folder.isEmpty ? "" : folder + "/") + placed
        }
        try? source.removeFile(name)
        _ = try? destination.synchronize()
        _ = try? source.synchronize()
        return (folder.isEmpty ? "" : folder + "/") + linked
    }

    /// Copies the photo at `relativePath` into `folder` under its own name or a free `name (n)`;
    /// returns the copy's relative path. The copy is a new file: a photo of its own.
    public func copy(_ relativePath: String, toFolder folder: String) throws(FolderWriteError) -> String {
        let (from, name) = try Self.split(relativePath)
        let source = try openFolder(from, create: false)
        defer { source.close() }
        let destination = try openFolder(folder, create: true)
        defer { destination.close() }
        let placed = try copy(from: source, name, into: destination, as: name)
        return (folder.isEmpty ? "" : folder + "/") + placed
    }

    /// Copies `name` of `source` to a hidden name in `destination`, syncs it, and links it under
    /// `as` or a free numbered name; nothing visible is left behind on failure.
    private func copy(from source: FileDescriptor, _ name: String, into destination: FileDescriptor, as wanted: String) throws(FolderWriteError) -> String {
        let input: FileDescriptor
        do { input = try source.openRegularFile(name) } catch { throw FolderWriteError.fromFileOpen(error, path: name) }
        defer { input.close() }
        let hidden = ".photoscroll-copy-\(System.processID)-\(UInt64.random(in: 0...UInt64.max))"
        try copyContents(of: input, into: destination, as: hidden)
        let linked: String?
        do { linked = try link(destination, hidden, into: destination, as: wanted) } catch {
            try? destination.removeFile(hidden)
            throw error
        }
        try? destination.removeFile(hidden)
        _ = try? destination.synchronize()
        guard let linked else { throw .system(SystemCallError(call: "linkat", errno: Errno.crossDevice)) }
        return linked
    }

    /// Takes the photo at `relativePath` out of the photos folder to `destination` (a file path
    /// in the data folder that does not exist yet). Linked and unlinked on one file system, so
    /// the bytes and times stay exactly as they were; copied, synced and then removed otherwise.
    func moveOut(_ relativePath: String, to destination: String) throws(FolderWriteError) {
        let (from, name) = try Self.split(relativePath)
        let source = try openFolder(from, create: false)
        defer { source.close() }
        do throws(SystemCallError) { try source.link(name, into: .currentDirectory, as: destination) } catch {
            guard error.errno == Errno.crossDevice else { throw FolderWriteError.from(error, path: relativePath) }
            let input: FileDescriptor
            do { input = try source.openRegularFile(name) } catch { throw FolderWriteError.fromFileOpen(error, path: relativePath) }
            defer { input.close() }
            let folder = (destination as NSString).deletingLastPathComponent
            let target: FileDescriptor
            do { target = try FileDescriptor.open(folder, OpenFlags.readOnly | OpenFlags.directory) } catch { throw FolderWriteError.from(error, path: folder) }
            defer { target.close() }
            try copyContents(of: input, into: target, as: (destination as NSString).lastPathComponent)
        }
        try? source.removeFile(name)
        _ = try? source.synchronize()
    }

    /// Renames the folder at `relative` to `newName` beside it; returns the new relative path.
    /// A folder that holds anything is never replaced (the kernel refuses), and an existing name
    /// is refused here first.
    public func renameFolder(_ relative: String, to newName: String) throws(FolderWriteError) -> String {
        let (parentPath, name) = try Self.split(relative)
        guard try Self.components(newName).count == 1 else { throw .invalidPath(newName) }
        let parent = try openFolder(parentPath, create: false)
        defer { parent.close() }
        // Checked as a folder of our own first: a link is never renamed in its place.
        do throws(SystemCallError) {
            try parent.open(name, OpenFlags.readOnly | OpenFlags.directory | OpenFlags.noFollow).close()
        } catch {
            throw FolderWriteError.from(SystemCallError(call: "openat", errno: error.errno), path: relative)
        }
        if (try? parent.status(of: newName)) != nil {
            throw .system(SystemCallError(call: "renameat(\(newName))", errno: Errno.fileExists))
        }
        do throws(SystemCallError) { try parent.rename(name, into: parent, as: newName) } catch {
            throw FolderWriteError.from(error, path: relative)
        }
        _ = try? parent.synchronize()
        return parentPath.isEmpty ? newName : parentPath + "/" + newName
    }

    /// Makes the folder at `relative` (and any missing parents); nothing when it exists.
    public func makeFolder(_ relative: String) throws(FolderWriteError) {
        guard !(try Self.components(relative)).isEmpty else { throw .invalidPath(relative) }
        try openFolder(relative, create: true).close()
    }

    /// Removes the folder at `relative` when it holds nothing but hidden files; true when it went.
    @discardableResult
    public func removeFolderIfEmpty(_ relative: String) -> Bool {
        guard let (parentPath, name) = try? Self.split(relative), let parent = try? openFolder(parentPath, create: false) else { return false }
        defer { parent.close() }
        return (try? parent.removeDirectory(name)) != nil
    }
}
