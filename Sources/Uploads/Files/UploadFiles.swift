import POSIX

/// The folder in the data folder where uploads' bytes wait until they are complete
/// (`<data>/uploads/<id>`), and the few file operations an upload needs. Nothing here ever
/// touches the photos folder: a half-written upload never shows there.
public struct UploadFiles: Sendable {
    /// Absolute or relative path of the folder.
    public let directory: String

    /// Makes the folder when it is missing.
    public init(directory: String) throws(SystemCallError) {
        self.directory = directory
        try FileSystem.makeDirectoryIfMissing(directory, permissions: 0o777)
    }

    /// Where an upload's bytes are.
    public func path(_ id: UploadID) -> String { directory + "/" + id.text }

    /// Makes the empty file of a new upload.
    public func create(_ id: UploadID) throws(SystemCallError) {
        let fd = try FileDescriptor.open(path(id), OpenFlags.writeOnly | OpenFlags.create | OpenFlags.exclusive | OpenFlags.noFollow, permissions: 0o666)
        fd.close()
    }

    /// Opens an upload's file to write at any offset.
    public func openForWriting(_ id: UploadID) throws(SystemCallError) -> FileDescriptor {
        try FileDescriptor.open(path(id), OpenFlags.writeOnly | OpenFlags.noFollow)
    }

    /// How many bytes the file holds, or nil when it is gone.
    public func size(_ id: UploadID) -> Int? {
        guard let info = try? FileSystem.linkStatus(path(id)), info.isRegularFile else { return nil }
        return info.size
    }

    /// Deletes an upload's bytes; nothing when they are gone already.
    public func remove(_ id: UploadID) {
        FileSystem.removeFile(path(id))
    }
}
