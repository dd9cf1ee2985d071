import Foundation
import Imaging

extension PhotoLibrary {
    /// A tile or thumbnail from memory, or nil; a hit is counted. Never blocks on I/O, so an
    /// event loop may call it.
    public func cachedImage(_ key: TileKey) -> [UInt8]? {
        cache.get(key, countingHit: true)
    }

    /// Like `cachedImage`, with the image's ETag and attachment as the cache holds them; a hit is counted.
    public func cachedEntry(_ key: TileKey) -> TileCache.Hit? {
        cache.entry(key, countingHit: true)
    }

    /// Only what was attached to a cached image (see `TileCache.attach`), or nil when the image is
    /// not cached or nothing is attached yet; a hit is counted only when something is returned.
    public func cachedAttachment(_ key: TileKey) -> (any AnyObject & Sendable)? {
        cache.attachment(key, countingHit: true)
    }

    /// Adds the cache's hits to `photoscroll_tile_cache_hits_total` and updates the bytes
    /// gauge. Runs before every render of the metrics (see `collect`), so a scrape sees both as
    /// they are.
    public func flushMetrics() {
        let hits = cache.takeHits()
        if hits > 0 { metrics.cacheHits.increment(by: Double(hits)) }
        metrics.cacheBytes.set(Double(cache.bytes))
    }

    /// Before a render of the metrics: the hits so far, and the bytes held now.
    public func collect() { flushMetrics() }

    /// A tile (or, with `tile` nil, the thumbnail) of the photo's current version: from memory,
    /// from the built pyramid on disk, or rendered from the source on demand. Concurrent callers
    /// for the same missing image share one render. Blocks: call it off the event loop.
    public func image(of photo: Photo, tile: TileCoordinate?) throws -> [UInt8] {
        let key = TileKey(version: photo.version, tile: tile)
        if let bytes = cachedImage(key) { return bytes }
        metrics.cacheMisses.increment()
        let bytes = try renders.run(key) { () throws -> [UInt8] in
            // Another caller may have finished this very image while we waited for the lock.
            if let bytes = cache.get(key) { return bytes }
            let bytes = try load(photo, tile: tile)
            cache.put(key, bytes)
            metrics.cacheBytes.set(Double(cache.bytes))
            return bytes
        }
        return bytes
    }

    /// Where the built pyramid of the photo's version keeps a tile (or, with nil, the thumbnail).
    public func builtPath(of photo: Photo, tile: TileCoordinate?) -> String {
        let directory = catalog.pyramidDirectory(photo.version)
        return tile.map { renderer.tilePath(in: directory, $0) } ?? renderer.thumbnailPath(in: directory)
    }

    /// Reads the image from the built pyramid, or renders it when the pyramid is not there yet.
    /// A photo taken as ready whose pyramid turns out to be gone (deleted behind our back) is
    /// rendered all the same, turned back to processing and queued for a build.
    private func load(_ photo: Photo, tile: TileCoordinate?) throws -> [UInt8] {
        if let bytes = Self.readFile(builtPath(of: photo, tile: tile)) { return bytes }
        if photo.status == .ready { pyramidVanished(photo) }
        onDemand.enter()
        defer { onDemand.leave() }
        if let tile {
            return try renderer.renderTile(source: photo.sourcePath, tile: tile)
        }
        return try renderer.thumbnail(source: photo.sourcePath)
    }

    /// The pyramid of a ready photo is not (all) on disk: what is left is moved aside (a build
    /// keeps a pyramid already in place), and its photos are built again.
    func pyramidVanished(_ photo: Photo) {
        let directory = catalog.pyramidDirectory(photo.version)
        if PhotoCatalog.pyramidExists(directory) {
            let aside = configuration.tilesDirectory + "/.\(photo.version).damaged-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            if rename(directory, aside) == 0 {
                DispatchQueue.global(qos: .utility).async { try? FileManager.default.removeItem(atPath: aside) }
            }
        }
        let ids = catalog.markMissing(photo.version)
        guard !ids.isEmpty else { return }
        logger.warning("a pyramid is missing on disk; building it again", [("photo", String(photo.id)), ("version", photo.version)])
        queue(ids)
        metrics.record(catalog)
    }

    /// The file's bytes, or nil when it is not there.
    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, size - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            offset += n
        }
        return bytes
    }
}
