#if canImport(Glibc)
import Glibc
#endif

/// Serves files under one root folder: strong ETags, conditional GETs, byte ranges, gzip,
/// and refusal of anything that would leave the root (`..`, NUL, symlinks out).
///
/// Small files are kept in memory (identity and gzip), keyed by path, inode, size and mtime, so
/// a hit costs one `stat` and no read, and a changed file is never served stale. Larger files
/// go out with sendfile. Every answer says `Cache-Control: no-cache`: browsers revalidate with
/// the ETag, because the page changes between releases.
public struct StaticFiles: Sendable {
    public let root: String
    let cache: StaticFileCache

    /// Files up to this size are cached in memory. Default 256 KiB.
    public static let cachedFileLimit = 256 * 1024

    public init(root: String, cacheBytes: Int = 32 << 20) {
        self.root = root
        self.cache = StaticFileCache(capacityBytes: cacheBytes)
    }

    /// Registers `GET /` (index.html) and `GET /*path`; register it after every other route.
    public func register(on router: inout Router) {
        let files = self
        router.addReply(.GET, "/", maxBodyBytes: 0) { request in try files.reply(for: request, relativePath: "index.html") }
        router.addReply(.GET, "/*path", maxBodyBytes: 0) { request in
            try files.reply(for: request, relativePath: try StaticPath.relative(target: request.target))
        }
    }

    /// Answers from memory when it can; reading a file from disk the first time goes to the worker pool.
    func reply(for request: HTTPRequest, relativePath: String) throws -> Reply {
        guard let resolved = StaticPath.resolve(relativePath, under: root) else {
            throw HTTPError(.notFound, "No file at \(request.path).")
        }
        let identity = FileIdentity(path: resolved.path, info: resolved.info)
        let contentType = MediaType.forPath(resolved.path)
        var headers: HTTPHeaders = [
            "Content-Type": contentType,
            "Cache-Control": "no-cache",
            "ETag": identity.entityTag,
            "Last-Modified": HTTPDate.format(identity.modifiedSeconds),
        ]
        let compressible = MediaType.isCompressible(contentType)
        if compressible { headers.add("Vary", "Accept-Encoding") }
        guard identity.size <= Self.cachedFileLimit else {
            return .response(HTTPResponse(headers: headers, body: .file(path: resolved.path)))
        }
        let wantsGzip = compressible && identity.size >= PreparedResponse.minimumCompressibleBytes
            && !request.headers.contains("Range") && PreparedResponse.acceptsGzip(request.headers["Accept-Encoding"])
        let cache = self.cache
        let baseHeaders = headers
        let answer: @Sendable (CachedFile) -> HTTPResponse = { file in
            var headers = baseHeaders
            if wantsGzip, let gzipped = file.gzipped {
                headers.set("Content-Encoding", "gzip")
                headers.set("ETag", EntityTag.variant(identity.entityTag, suffix: "gzip"))
                return HTTPResponse(headers: headers, body: .bytes(gzipped))
            }
            return HTTPResponse(headers: headers, body: .bytes(file.bytes))
        }
        if let file = cache.lookup(identity), !wantsGzip || file.gzipped != nil {
            return .response(answer(file))
        }
        return .offload {
            guard let file = cache.load(identity, compress: wantsGzip) else {
                throw HTTPError(.notFound, "No file at \(request.path).")
            }
            return answer(file)
        }
    }
}
