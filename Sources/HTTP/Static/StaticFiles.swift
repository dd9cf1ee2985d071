import Observability
import POSIX

/// Serves files under one root folder: strong ETags, conditional GETs, byte ranges, gzip,
/// and refusal of anything that would leave the root (`..`, NUL, symlinks out).
///
/// Small files are kept in memory (identity and gzip, with their headers), keyed by path,
/// inode, size and mtime, so a hit costs one `stat` and no read, and a changed file is never
/// served stale. Larger files go out with sendfile. Every answer says `Cache-Control: no-cache`:
/// browsers revalidate with the ETag, because the page changes between releases.
public struct StaticFiles: Sendable {
    /// The folder whose files are served.
    public let root: String
    let cache: StaticFileCache
    let resolver: StaticPathResolver

    /// Files up to this size are cached in memory. Default 256 KiB.
    public static let cachedFileLimit = 256 * 1024

    /// Serves `root`; at most `cacheBytes` of small files (and their gzip forms) stay in memory.
    /// `clock` times how long a path's resolution is trusted.
    public init(root: String, cacheBytes: Int = 32 << 20, clock: any MonotonicClock = SystemClock()) {
        self.root = root
        self.cache = StaticFileCache(capacityBytes: cacheBytes)
        self.resolver = StaticPathResolver(root: root, clock: clock)
    }

    /// Registers `GET /` (index.html) and `GET /*path`, under `access`.
    public func register(on router: inout Router, access: (any AccessRule)? = nil) {
        let files = self
        // `/` resolves to index.html like any target naming a folder's root.
        let reply: @Sendable (HTTPRequest) throws -> Reply = { request in
            try files.reply(for: request, path: try files.resolver.resolve(target: request.target))
        }
        router.addReply(.GET, "/", maxBodyBytes: 0, access: access, reply)
        router.addReply(.GET, "/*path", maxBodyBytes: 0, access: access, reply)
    }

    /// Registers `GET pattern` answering with one file of the folder (`index.html` for a page
    /// that reads its own address), under `access`.
    public func register(_ pattern: String, serving file: String, on router: inout Router, access: (any AccessRule)? = nil) {
        let files = self
        router.addReply(.GET, pattern, maxBodyBytes: 0, access: access) { request in
            try files.reply(for: request, path: files.resolver.resolve(file))
        }
    }

    /// Answers from memory when it can; reading a file from disk the first time goes to the worker pool.
    /// `path` is the resolved real path, nil when there is none.
    func reply(for request: HTTPRequest, path: String?) throws -> Reply {
        guard let path else { throw HTTPError(.notFound, "No file at \(request.path).") }
        // The resolved path holds no symlink; one there now was swapped in since (the resolution
        // is remembered for a second), so lstat refuses it rather than follow it. A directory
        // swapped for a symlink higher up changes the file's identity, which misses the cache,
        // and files are opened only component by component without following symlinks.
        guard let info = try? FileSystem.linkStatus(path), info.isRegularFile else {
            throw HTTPError(.notFound, "No file at \(request.path).")
        }
        let size = info.size
        // The fields were noted as the head was read: a request without them looks none up.
        let gzipAllowed = size >= PreparedResponse.minimumCompressibleBytes && !request.noted.contains(.range)
            && request.noted.contains(.acceptEncoding) && PreparedResponse.acceptsGzip(request.headers["Accept-Encoding"])
        if size <= Self.cachedFileLimit, let file = cache.lookup(path: path, info: info), !(gzipAllowed && file.compressible && file.gzipped == nil) {
            return .encoded(file.answer(gzip: gzipAllowed && file.compressible))
        }
        let identity = FileIdentity(path: path, info: info)
        let contentType = MediaType.forPath(path)
        let compressible = MediaType.isCompressible(contentType)
        guard let root = resolver.realRoot else { throw HTTPError(.notFound, "No file at \(request.path).") }
        guard identity.size <= Self.cachedFileLimit else {
            return .response(HTTPResponse(headers: CachedFile.headers(identity: identity, contentType: contentType, compressible: compressible),
                                          body: .confinedFile(root: root, path: path)))
        }
        let wantsGzip = gzipAllowed && compressible
        let cache = self.cache
        return .offload {
            guard let file = cache.load(identity, root: root, contentType: contentType, compressible: compressible, compress: wantsGzip) else {
                throw HTTPError(.notFound, "No file at \(request.path).")
            }
            return HTTPResponse(file.answer(gzip: wantsGzip))
        }
    }
}
