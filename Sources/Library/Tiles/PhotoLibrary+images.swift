import Foundation
import Synchronization
import POSIX
import Imaging

extension PhotoLibrary {
    /// A tile (or, with `tile` nil, the thumbnail) of the current version of photo `id`: a hit
    /// from memory (counted), or what a miss needs. Never blocks on I/O, so an event loop may
    /// call it; a hit reads the photo's version, size and status alone.
    public func lookupImage(photoID id: Int, tile: TileCoordinate?) -> ImageLookup {
        if let info = imageInfo(id), info.status != .failed,
           tile.map({ info.pyramid(tileSize: configuration.settings.tileSize)?.contains($0) ?? false }) ?? true,
           let stamp = cache.lookup(TileKey(version: info.version, tile: tile), countingHit: true) {
            return .held(stamp)
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

    /// Whether images are kept in memory at all (`tileCacheMegabytes` above 0).
    public var keepsImages: Bool { cache.keepsImages }

    /// The stamp of the image of `key` in memory, or nil; a hit is counted, and nothing is
    /// retained. Never blocks on I/O.
    public func heldImage(_ key: TileKey) -> ImageStamp? {
        cache.lookup(key, countingHit: true)
    }

    /// The image stamped `stamp`, while it is held (not evicted, dropped or stored again);
    /// not counted again as a hit.
    public func image(_ stamp: ImageStamp) -> CachedImage? {
        cache.image(stamp)
    }

    /// Whether the image stamped `stamp` is still held.
    public func holdsImage(_ stamp: ImageStamp) -> Bool {
        cache.holds(stamp)
    }

    /// Calls `observer` with the stamp of every image in memory that goes from now on: evicted,
    /// dropped because its photo changed or went (a rescan), or stored again. On the thread
    /// that removed it, never under the library's locks; what a caller keeps by that stamp is
    /// to go with it.
    public func observeDroppedImages(_ observer: @escaping @Sendable (ImageStamp) -> Void) {
        cache.onDrop(observer)
    }

    /// Adds the cache's hits to `photoscroll_tile_cache_hits_total` and updates the bytes
    /// gauge. Runs before every render of the metrics (see `collect`), so a scrape sees both as
    /// they are.
    func flushMetrics() {
        let hits = cache.takeHits()
        if hits > 0 { metrics.cacheHits.increment(by: Double(hits)) }
        metrics.cacheBytes.set(Double(cache.bytes))
    }

    /// Before a render of the metrics: the hits so far, and the bytes held now.
    public func collect() {
        flushMetrics()
        metrics.record(stages)
    }

    /// A tile (or, with `tile` nil, the thumbnail) of the photo's current version: from memory,
    /// from the built pyramid on disk, or rendered from the source on demand. Concurrent callers
    /// for the same missing image share one render. Blocks: call it off the event loop.
    public func image(of photo: Photo, tile: TileCoordinate?) throws -> [UInt8] {
        let photo = try renderedVersion(of: photo)
        return try cachedOrFilled(TileKey(version: photo.version, tile: tile)) { try load(photo, tile: tile) }
    }

    /// The photo at the version that what is rendered of it now is made and kept for.
    func renderedVersion(of photo: Photo) throws -> Photo {
        var photo = photo
        if photo.status == .processing, catalog.entry(photo.id)?.hashed == false {
            // Rendered for the version the photo will have once examined, not for the one it
            // has while only listed: what is made now is kept for its pyramid.
            guard let examined = catalog.examine(photo.id) else { throw ImagingError.io("the photo's file is gone") }
            photo = examined
            if photo.status == .failed { throw ImagingError.corrupt(photo.error ?? "the photo cannot be shown") }
        } else if photo.status == .processing, let current = catalog.photo(photo.id), current.version != photo.version,
                  current.status == .processing {
            // Examined since the caller looked: what is rendered now is for the version it has.
            photo = current
        }
        return photo
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
    func builtPath(of photo: Photo, tile: TileCoordinate?) -> String {
        let directory = catalog.pyramidDirectory(photo.version)
        return tile.map { renderer.tilePath(in: directory, $0) } ?? renderer.thumbnailPath(in: directory)
    }

    /// Reads the image from the built pyramid, or renders it when the pyramid is not there yet.
    /// A photo taken as ready whose pyramid turns out to be gone (deleted behind our back) is
    /// rendered all the same, turned back to processing and queued for a build.
    /// A pyramidal TIFF served in place has no tiles in its pyramid folder (only its thumbnail):
    /// they are read from the photo itself, built or not, and nothing is kept on disk.
    private func load(_ photo: Photo, tile: TileCoordinate?) throws -> [UInt8] {
        if let bytes = Self.readFile(builtPath(of: photo, tile: tile)) { return bytes }
        if let tile, photo.status == .ready || Self.namedAsTIFF(photo),
           let bytes = try renderer.storedTile(source: catalog.source(of: photo), tile: tile) {
            return bytes
        }
        if photo.status == .ready { pyramidVanished(photo) }
        if let bytes = Self.readFile(early.path(photo.version, tile)) { return bytes }
        return try renderEarly(photo, tile: tile, forViewer: true)
    }

    /// Renders what `tile` (nil: the thumbnail) is part of (its level, its row, or the photo's
    /// first stage), keeps all of it in the early folder for the build to take over, and answers
    /// `tile`. Requests for any part of a render in flight wait for it instead of rendering again.
    /// A render `forViewer` (a request, not the ingest) makes background builds wait while it runs.
    func renderEarly(_ photo: Photo, tile: TileCoordinate?, forViewer: Bool = false) throws -> [UInt8] {
        let version = photo.version
        while work.beginRender(version) == .build {
            // The build goes from the top down: a native tile in the middle of a gigapixel photo
            // comes from it only a minute or more from now. A row that a band of the file renders
            // alone is rendered beside the build instead of waiting for it.
            if let tile, !work.hasStaged(version, tile: tile),
               (try? renderer.rendersRowAlone(source: catalog.source(of: photo), tile: tile)) == true {
                return try renderBesideBuild(photo, tile: tile)
            }
            // The version's build runs: it makes this tile (or took it over from what was
            // rendered before), so it is not made here too.
            let built = builtPath(of: photo, tile: tile)
            switch work.awaitBuild(version, tile: tile, path: { staging, tile in
                tile.map { renderer.tilePath(in: staging, $0) } ?? renderer.thumbnailPath(in: staging)
            }) {
            case .staged(let path):
                // Renamed into place meanwhile: the built pyramid has it.
                if let bytes = Self.readFile(path) ?? Self.readFile(built) { return bytes }
                // The build failed and removed its folder.
                work.awaitBuildEnd(version)
            case .ended:
                if let bytes = Self.readFile(built) { return bytes }
            }
        }
        defer { work.endRender(version) }
        if forViewer { onDemand.enter() }
        defer { if forViewer { onDemand.leave() } }
        // A tile of a render in flight is answered as soon as that render wrote it, not when
        // the whole render ends: the fitted view's tiles go out while the levels below and the
        // thumbnail are still being made. The photo's first stage is looked for before its
        // header is read again: it is the render a viewer opening a new photo meets.
        let first = EarlyRenderKey(version: version, unit: .first)
        if earlyRenders.isRunning(first), tile.map({ mayBeFirst(photo, $0) }) ?? true,
           let bytes = try awaitEarly(first, tile: tile) {
            return bytes
        }
        let unit = try renderer.renderUnit(source: catalog.source(of: photo), tile: tile)
        let key = EarlyRenderKey(version: version, unit: unit)
        if earlyRenders.isRunning(key), let bytes = try awaitEarly(key, tile: tile) { return bytes }
        let early = early, work = work
        let asked = Mutex<[UInt8]?>(nil)
        _ = try earlyRenders.run(key) {
            do {
                try renderer.render(unit, source: catalog.source(of: photo)) { coordinate, bytes in
                    if coordinate == tile { asked.withLock { $0 = bytes } }
                    try early.write(bytes, version: version, tile: coordinate)
                    work.wroteEarly(version, coordinate)
                }
            } catch {
                work.failedEarly(version, unit, error)
                throw error
            }
            if case .first = unit { firstStageDone.withLock { _ = $0.insert(version) } }
            return true
        }
        if let bytes = asked.withLock({ $0 }) ?? Self.readFile(early.path(version, tile)) { return bytes }
        // The render in flight was another unit's, or its folder was taken over by the build
        // meanwhile: the built pyramid has it, or a render of its own makes it.
        if let bytes = Self.readFile(builtPath(of: photo, tile: tile)) { return bytes }
        return try renderUnkept(photo, tile: tile)
    }

    /// The tile once the render of `key` in flight wrote it, nil when that render ended without
    /// it, or its error.
    private func awaitEarly(_ key: EarlyRenderKey, tile: TileCoordinate?) throws -> [UInt8]? {
        switch work.awaitEarly(key.version, unit: key.unit, tile: tile, while: { earlyRenders.isRunning(key) }) {
        case .written: return Self.readFile(early.path(key.version, tile))
        case .ended: return nil
        case .failed(let error): throw error
        }
    }

    /// Whether a photo's first stage may make `tile`: its level is at most the first stage's top
    /// for a JPEG read straight (others make only the thumbnail there, and their tile is then
    /// rendered on its own once that render ends).
    private func mayBeFirst(_ photo: Photo, _ tile: TileCoordinate) -> Bool {
        guard let pyramid = photo.pyramid(tileSize: configuration.settings.tileSize) else { return false }
        return tile.z <= PhotoRenderer.firstLevels(of: pyramid, settings: configuration.settings)
    }

    /// Renders the row of tiles holding `tile` while the version's build runs: the build writes
    /// its own files, so the row's tiles are kept in memory only, and requests for any of them
    /// share the one render.
    private func renderBesideBuild(_ photo: Photo, tile: TileCoordinate) throws -> [UInt8] {
        let source = catalog.source(of: photo), version = photo.version
        let unit = try renderer.renderUnit(source: source, tile: tile)
        let made = try rowsBesideBuild.run(EarlyRenderKey(version: version, unit: unit)) { () throws -> [TileCoordinate: [UInt8]] in
            let tiles = Mutex<[TileCoordinate: [UInt8]]>([:])
            try renderer.render(unit, source: source) { coordinate, bytes in
                if let coordinate { tiles.withLock { $0[coordinate] = bytes } }
            }
            let row = tiles.withLock { $0 }
            for (coordinate, bytes) in row where coordinate != tile { cache.put(TileKey(version: version, tile: coordinate), bytes) }
            return row
        }
        guard let bytes = made[tile] else { throw ImagingError.vips("the render did not make \(tile)") }
        return bytes
    }

    /// Renders what `tile` is part of and answers it, keeping nothing.
    private func renderUnkept(_ photo: Photo, tile: TileCoordinate?) throws -> [UInt8] {
        let unit = try renderer.renderUnit(source: catalog.source(of: photo), tile: tile)
        let asked = Mutex<[UInt8]?>(nil)
        try renderer.render(unit, source: catalog.source(of: photo)) { coordinate, bytes in
            if coordinate == tile { asked.withLock { $0 = bytes } }
        }
        guard let bytes = asked.withLock({ $0 }) else { throw ImagingError.vips("the render did not make \(tile.map(\.description) ?? "the thumbnail")") }
        return bytes
    }

    /// The pyramid of a ready photo is not (all) on disk: what is left is moved aside (a build
    /// keeps a pyramid already in place), and its photos are built again.
    func pyramidVanished(_ photo: Photo) {
        let directory = catalog.pyramidDirectory(photo.version)
        if PhotoCatalog.pyramidExists(directory) {
            let aside = configuration.tilesDirectory + "/.\(photo.version).damaged-\(System.processID)-\(UInt32.random(in: 0...UInt32.max))"
            if (try? FileSystem.rename(directory, to: aside)) != nil {
                DispatchQueue.global(qos: .utility).async { try? FileManager.default.removeItem(atPath: aside) }
            }
        }
        let ids = catalog.markMissing(photo.version)
        guard !ids.isEmpty else { return }
        logger.warning("a pyramid is missing on disk; building it again", [("photo", String(photo.id)), ("version", photo.version)])
        queue(ids)
        metrics.record(catalog)
    }

    /// Whether the photo's name says TIFF: only those are asked whether they are stored pyramids
    /// before they are built (any other is rendered, which finds out too).
    static func namedAsTIFF(_ photo: Photo) -> Bool {
        let name = photo.relativePath.lowercased()
        return name.hasSuffix(".tif") || name.hasSuffix(".tiff")
    }

    /// The file's bytes, or nil when it is not there.
    static func readFile(_ path: String) -> [UInt8]? { FileDescriptor.contents(ofFile: path) }
}
