/// What a response carries after its head.
public enum HTTPBody: Sendable {
    /// No body (Content-Length: 0).
    case empty
    /// Bytes in memory. `[UInt8]` is copy-on-write, so a cached tile is shared, not copied, per request.
    case bytes([UInt8])
    /// A byte range of a file on disk, sent with sendfile(2). `length` nil means to the end of the file.
    case file(path: String, offset: Int = 0, length: Int? = nil)
    /// A whole file under `root`, opened without following any symlink below the root: a
    /// symlink swapped in after `path` was resolved is refused (404), never followed out.
    case confinedFile(root: String, path: String)
    /// A byte range of a file the application opened itself (the very file it checked), sent
    /// with sendfile(2) and closed when the response is done. `length` nil means to the end.
    case openFile(OpenFile, offset: Int = 0, length: Int? = nil)
    /// A long-lived body (Server-Sent Events): the server sends the head without Content-Length,
    /// then calls `start` once with a stream the application writes to from any thread.
    case stream(@Sendable (ResponseStream) -> Void)
}
