import Foundation
import POSIX

extension PhotoFolderWriter {
    /// How the hidden files begin that a write across file systems makes beside its destination
    /// before linking them under their names (`place`, `copy`). A crash between the two leaves
    /// one behind; nothing lists it (it is hidden) and nothing else removes it.
    static let leftoverPrefixes = [".photoscroll-upload-", ".photoscroll-copy-"]

    /// Removes the hidden files of writes cut short (`leftoverPrefixes`) from the photos folder
    /// and its folders, when last changed `olderThan` seconds or more before `now` (unix seconds):
    /// a younger one may be a write going on now, in this process or another replica's. Walks
    /// without following any link, skips hidden folders and what cannot be opened, at most 64
    /// deep. Returns the relative paths removed.
    @discardableResult
    public func sweepLeftovers(olderThan seconds: Int, now: Int) -> [String] {
        guard let top = try? FileDescriptor.open(root, OpenFlags.readOnly | OpenFlags.directory) else { return [] }
        var removed: [String] = []
        Self.sweep(top, path: "", depth: 0, before: now - seconds, removed: &removed)
        top.close()
        return removed
    }

    private static func sweep(_ folder: FileDescriptor, path: String, depth: Int, before: Int, removed: inout [String]) {
        var leftovers: [String] = []
        var folders: [String] = []
        try? folder.forEachEntry { entry in
            guard let name = entry.text else { return true }
            if entry.isHidden {
                if leftoverPrefixes.contains(where: name.hasPrefix) { leftovers.append(name) }
            } else if entry.fileKind == .directory || entry.fileKind == .unknown {
                folders.append(name)
            }
            return true
        }
        for name in leftovers {
            // The link itself, never what it points at; only a regular file that old.
            guard let status = try? folder.status(of: name), status.isRegularFile, status.modifiedSeconds <= before else { continue }
            if (try? folder.removeFile(name)) != nil { removed.append(path.isEmpty ? name : path + "/" + name) }
        }
        guard depth < 64 else { return }
        for name in folders {
            guard let child = try? folder.open(name, OpenFlags.readOnly | OpenFlags.directory | OpenFlags.noFollow) else { continue }
            sweep(child, path: path.isEmpty ? name : path + "/" + name, depth: depth + 1, before: before, removed: &removed)
            child.close()
        }
    }
}
