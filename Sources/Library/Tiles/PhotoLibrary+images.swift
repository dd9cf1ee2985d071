import Foundation
import POSIX
import Imaging

/// Where a tile or thumbnail lookup stands (`PhotoLibrary.lookupImage`).
public enum ImageLookup: Sendable {
    /// In memory, with what a caller attached to the entry (`TileCache.attach`) handed out in
    /// place of its bytes; `version` is the photo version the entry is of.
    case attached(any TileCacheAttachment, version: String)
    /// In memory, with nothing attached: the bytes of the photo's current version.
    case hit(CachedImage)
    /// Not in memory: `image(of:tile:)` makes it, off the event loop; `ImageMiss` says how.
    /// Boxed, as is `notFound`: a photo's record is large, and a hit should not carry its room.
    indirect case miss(Photo, ImageMiss)
    /// There is no such image.
    indirect case notFound(ImageNotFound)
}

/// How a missing image is made.
public enum ImageMiss: Sendable, Equatable {
    /// Read from the built pyramid, where it is the file at `path`.
    case built(path: String)
    /// Rendered from the source now: there is no pyramid yet (its build is queued).
    case rendered
}

/// Why there is no image.
public enum ImageNotFound: Sendable, Equatable {
    /// No photo has that id.
    case noSuchPhoto
    /// The photo cannot be shown (`Photo.error` says why).
    case failed(Photo)
    /// The tile is outside the photo's pyramid, or the photo's size is not known.
    case outsidePyramid(Photo)
}

extension PhotoLibrary {
    /// A tile (or, with `tile` nil, the thumbnail) of the current version of photo `id`: a hit
    /// from memory (counted), or what a miss needs. Never blocks on I/O, so an event loop may
    /// call it; a hit reads the photo's version, size and status alone.
    public func lookupImage(photoID id: Int, tile: TileCoordinate?) -> ImageLookup {
        if let info = imageInfo(id), info.status != .failed,
           tile.map({ info.pyramid(tileSize: configuration.settings.tileSize)?.contains($0) ?? false }) ?? true,
           let hit = cache.lookup(TileKey(version: info.version, tile: tile), countingHit: true) {
            switch hit {
            case .attached(let attachment): return .attached(attachment, version: info.version)
            case .image(let image): return .hit(image)
            }
        }
        guard let photo = photo(id) else { return .notFound(.noSuchPhoto) }
        if photo.status == .failed { return .notFound(.failed(photo)) }
        if let tile {
            guard let pyramid = photo.pyramid(tileSize: configuration.settings.tileSize), pyramid.contains(tile) else {
                return .notFound(.outsidePyramid(photo))
            }
        }
        return .miss(photo, photo.status == .ready ? .built(path: builtPath(of: photo, tile: tile)) : .rendered)
    }

    /// A tile, thumbnail or rendition from memory, or nil; a hit is counted. Never blocks on I/O.
    public func cachedImage(_ key: TileKey) -> CachedImage? {
        cache.get(key, countingHit: true)
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
        try cachedOrFilled(TileKey(version: photo.version, tile: tile)) { try load(photo, tile: tile) }
    }

    /// The image of `key` from memory (a counted hit), else made by `load` and kept as the
    /// cache's policy says (a counted miss).
    func cachedOrFilled(_ key: TileKey, _ load: () throws -> [UInt8]) throws -> [UInt8] {
        if let image = cache.get(key, countingHit: true) { return image.bytes }
        metrics.cacheMisses.increment()
        let bytes = try cache.fill(key, load)
        metrics.cacheBytes.set(Double(cache.bytes))
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
    static func readFile(_ path: String) -> [UInt8]? { FileDescriptor.contents(ofFile: path) }
}
