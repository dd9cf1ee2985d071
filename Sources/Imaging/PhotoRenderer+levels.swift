import Foundation
import POSIX
import Synchronization

/// Where tiles rendered ahead of a pyramid go: each one as it is encoded, with its coordinate
/// (nil for the thumbnail).
public typealias TileSink = @Sendable (TileCoordinate?, [UInt8]) throws -> Void

extension PhotoRenderer {
    /// The screen a photo is first shown on: its fitted view asks for the level that fills it.
    public static let screen = (width: 2880, height: 1800)

    /// Levels whose pixels are at most this many are rendered whole on demand (one shrunk
    /// decode gives every tile of them and of the levels below); larger ones a row of tiles at a time.
    static let wholeLevelPixels = 8 << 20

    /// Whether libjpeg alone gives the photo's pixels as served: a JPEG with 8-bit colour or
    /// greyscale that is sRGB already (no profile, or one that names itself sRGB) and that EXIF
    /// does not turn. Such a photo is read in strips at any DCT scale, without libvips.
    static func readsStraight(_ photo: OpenedPhoto) -> Bool {
        let image = photo.image
        guard photo.loader.format == "jpeg", image.orientation == 1, image.isEightBit, !image.isCMYK, !image.hasAlpha,
              image.bands == 3 || image.bands == 1 else { return false }
        guard image.hasICCProfile else { return true }
        return image.iccProfile.flatMap(ICCProfile.init)?.isSRGB ?? false
    }

    /// The level a `screen` shows the whole photo with: the smallest whose pixels cover the photo
    /// fitted into it (never enlarged).
    public static func viewLevel(of pyramid: TilePyramid, screen: (width: Int, height: Int) = screen) -> Int {
        let fit = min(1, min(Double(screen.width) / Double(pyramid.width), Double(screen.height) / Double(pyramid.height)))
        let wanted = (width: Int((Double(pyramid.width) * fit).rounded(.up)), height: Int((Double(pyramid.height) * fit).rounded(.up)))
        return (0...pyramid.maxZoom).first { z in
            let size = pyramid.levelSize(z)!
            return size.width >= wanted.width && size.height >= wanted.height
        } ?? pyramid.maxZoom
    }

    /// The smallest level whose short side still covers the thumbnail (native when none does).
    static func thumbnailLevel(of pyramid: TilePyramid, size: Int) -> Int {
        (0...pyramid.maxZoom).first { z in let level = pyramid.levelSize(z)!; return min(level.width, level.height) >= size }
            ?? pyramid.maxZoom
    }

    /// The top of the levels a JPEG read straight gets from its first decode: the level its fitted
    /// view shows when that is below native, at least the thumbnail's, and at least what a 1/8
    /// decode gives anyway.
    public static func firstLevels(of pyramid: TilePyramid, settings: RenderSettings, screen: (width: Int, height: Int) = screen) -> Int {
        var top = max(thumbnailLevel(of: pyramid, size: settings.thumbnailSize), pyramid.maxZoom - 3)
        let view = viewLevel(of: pyramid, screen: screen)
        if view < pyramid.maxZoom { top = max(top, view) }
        return min(top, pyramid.maxZoom)
    }

    /// What one render on demand makes, so that requests for any of it wait for the one render
    /// instead of starting their own: `tile` nil is the thumbnail.
    public static func renderUnit(source: PhotoSource, tile: TileCoordinate?, settings: RenderSettings) throws -> RenderUnit {
        let photo = try openPhoto(source, settings: settings, access: .sequential)
        guard readsStraight(photo) else { return tile.map { .tile($0) } ?? .first }
        guard let tile else { return .first }
        let info = photo.info
        let pyramid = TilePyramid(width: info.width, height: info.height, tileSize: settings.tileSize)
        guard let level = pyramid.levelSize(tile.z), pyramid.contains(tile) else { throw ImagingError.noSuchTile(tile) }
        if tile.z <= firstLevels(of: pyramid, settings: settings) { return .first }
        if level.width * level.height <= wholeLevelPixels || pyramid.maxZoom - tile.z > 3 { return .levels(top: tile.z) }
        return .row(z: tile.z, y: tile.y)
    }

    /// Renders one unit (`renderUnit`), handing each tile (and the thumbnail, for `.first`) to
    /// `sink` as it is encoded.
    ///
    /// `.first` is what a photo needs before anything else, from one decode shrunk as far as it
    /// allows: its thumbnail and, for a JPEG read straight, every tile of levels 0…`firstLevels`.
    /// `.levels` decodes once at the level's scale, `.row` skips the rows above its tiles, and
    /// `.tile` renders one tile through libvips (`renderTile`).
    public static func render(_ unit: RenderUnit, source: PhotoSource, settings: RenderSettings, sink: @escaping TileSink) throws {
        switch unit {
        case .tile(let tile):
            try sink(tile, try renderTile(source: source, tile: tile, settings: settings))
            return
        case .first, .levels, .row:
            break
        }
        let photo = try openPhoto(source, settings: settings, access: .sequential)
        guard readsStraight(photo) else {
            guard case .first = unit else { throw ImagingError.vips("\(unit) is rendered for JPEGs read straight only") }
            try sink(nil, try thumbnail(source: source, settings: settings))
            return
        }
        let info = photo.info
        let pyramid = TilePyramid(width: info.width, height: info.height, tileSize: settings.tileSize)
        // Someone waits for this: tiles are encoded beside the decode on a processor that no other
        // render or build of this process uses (a first start's stages use them all already).
        let running = rendersRunning.add(1, ordering: .relaxed).newValue + buildsRunning.load(ordering: .relaxed)
        defer { rendersRunning.subtract(1, ordering: .relaxed) }
        let crew = TileCrew(helpers: max(0, min(1, ProcessInfo.processInfo.activeProcessorCount - running)))
        defer { crew.stop() }
        switch unit {
        case .first:
            let keep = thumbnailLevel(of: pyramid, size: settings.thumbnailSize)
            let top = firstLevels(of: pyramid, settings: settings)
            let kept = try decodeLevels(source, pyramid: pyramid, top: top, keeping: keep, settings: settings, crew: crew) { try sink($0, $1) }
            try sink(nil, try squareThumbnail(of: kept!.image(rows: pyramid.levelSize(keep)!.height), orientation: 1, settings: settings))
        case .levels(let z):
            guard z >= 0, z <= pyramid.maxZoom else { throw ImagingError.noSuchTile(TileCoordinate(z: z, x: 0, y: 0)) }
            // Below 1/8 a decode gives level maxZoom − 3; the levels between are halvings of it.
            let top = max(z, pyramid.maxZoom - 3)
            try decodeLevels(source, pyramid: pyramid, top: top, settings: settings, crew: crew, wanted: { $0.z <= z }) { try sink($0, $1) }
        case .row(let z, let y):
            guard pyramid.contains(TileCoordinate(z: z, x: 0, y: y)), pyramid.maxZoom - z <= 3 else {
                throw ImagingError.noSuchTile(TileCoordinate(z: z, x: 0, y: y))
            }
            try decodeRow(source, pyramid: pyramid, z: z, row: y, settings: settings, sink: sink)
        case .tile:
            break
        }
    }

    /// Whether the row of tiles holding `tile` renders (`.row`) from a band of the JPEG cut out
    /// at its restarts or with its scan index, decoding a fraction of a second's worth of it
    /// rather than every row above (the index's one pass over the file aside, made once).
    public static func rendersRowAlone(source: PhotoSource, tile: TileCoordinate, settings: RenderSettings) throws -> Bool {
        guard case .row = try renderUnit(source: source, tile: tile, settings: settings) else { return false }
        let file = try source.open()
        defer { file.close() }
        return JPEGRows.restartsAtRows(descriptor: file.rawValue) || JPEGScanIndex.indexes(descriptor: file.rawValue)
    }

    /// Renders of levels running in this process now.
    static let rendersRunning = Atomic<Int>(0)

    /// `renderUnit` for a file named by its path (tools, tests).
    public static func renderUnit(source path: String, tile: TileCoordinate?, settings: RenderSettings) throws -> RenderUnit {
        try renderUnit(source: .file(path), tile: tile, settings: settings)
    }

    /// `render` for a file named by its path (tools, tests).
    public static func render(_ unit: RenderUnit, source path: String, settings: RenderSettings, sink: @escaping TileSink) throws {
        try render(unit, source: .file(path), settings: settings, sink: sink)
    }

    /// Decodes the JPEG at the scale of level `top` and cuts levels `top` down to `bottom` into
    /// tiles; returns the pixels of level `keeping` when asked for.
    @discardableResult
    static func decodeLevels(_ source: PhotoSource, pyramid: TilePyramid, top: Int, bottom: Int = 0, keeping: Int? = nil,
                             settings: RenderSettings, crew: TileCrew, wanted: @escaping (TileCoordinate) -> Bool = { _ in true },
                             sink: @escaping LevelCascade.Sink) throws -> RGBPixels? {
        let scale = 1 << (pyramid.maxZoom - top)
        precondition(scale <= 8)
        let file = try source.open()
        defer { file.close() }
        let rows = try JPEGRows(descriptor: file.rawValue, scale: scale)
        let cascade = LevelCascade(pyramid: pyramid, top: top, bottom: bottom, keeping: keeping, quality: settings.jpegQuality,
                                   crew: crew, wanted: wanted, sink: sink)
        guard rows.width == cascade.size.width, rows.height == cascade.size.height else {
            throw ImagingError.vips("libjpeg decodes \(rows.width)×\(rows.height) at 1/\(scale), level \(top) is \(cascade.size.width)×\(cascade.size.height)")
        }
        do {
            while !cascade.isComplete {
                let space = try cascade.space()
                try rows.read(into: space.pixels, stride: space.stride, rows: space.rows)
                try cascade.advance(space.rows)
            }
            return try cascade.finish()
        } catch {
            // Tiles already handed over must not be written after this returns.
            try? cascade.drain()
            throw error
        }
    }

    /// Every tile of row `row` of level `z` (at most 1/8 of native): the rows above are skipped.
    static func decodeRow(_ source: PhotoSource, pyramid: TilePyramid, z: Int, row: Int, settings: RenderSettings,
                          sink: TileSink) throws {
        let scale = 1 << (pyramid.maxZoom - z)
        precondition(scale <= 8)
        let file = try source.open()
        defer { file.close() }
        let T = pyramid.tileSize
        let top = row * T, height = min(T, (pyramid.levelSize(z)?.height ?? 0) - top)
        guard height > 0 else { throw ImagingError.noSuchTile(TileCoordinate(z: z, x: 0, y: row)) }
        // A file with restarts at its MCU rows is cut there: only the band around the row is
        // decoded, not the rows above (of a gigapixel photo, hundreds of megabytes). One without
        // is cut where its scan index says its rows start (one pass over its Huffman codes, made
        // once per file and kept, waited for only down to the band's rows); only a file neither
        // way cuts is decoded from the top.
        let wanted = top * scale..<(top + height) * scale
        let rows = try JPEGRows.band(descriptor: file.rawValue, scale: scale, holding: wanted)
            ?? JPEGScanIndexes.shared.index(descriptor: file.rawValue, holding: wanted).flatMap {
                JPEGRows.band(descriptor: file.rawValue, scale: scale, holding: wanted, index: $0)
            }
            ?? JPEGRows(descriptor: file.rawValue, scale: scale)
        let band = RGBPixels(width: rows.width, rows: height)
        try rows.skip(top - rows.row)
        try rows.read(into: band.base, stride: band.stride, rows: height)
        let width = rows.width, columns = (width + T - 1) / T
        // The row's tiles share the processors: the person waiting sees them all at once.
        let failure = FirstFailure()
        DispatchQueue.concurrentPerform(iterations: columns) { x in
            do {
                let bytes = try band.jpeg(x: x * T, y: 0, width: min(T, width - x * T), height: height, quality: settings.jpegQuality)
                try sink(TileCoordinate(z: z, x: x, y: row), bytes)
            } catch {
                failure.record(error)
            }
        }
        try failure.check()
    }

}
