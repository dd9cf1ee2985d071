extension PhotoRenderer {
    /// Tiles a rendition may join at most; a larger region is rendered from the photo instead,
    /// streamed, so that memory never holds hundreds of decoded tiles.
    static let maxJoinedTiles = 256

    /// A rendition cut from the built pyramid in `directory`: from the coarsest level that still
    /// has at least the pixels the output needs, reading only the tiles the region covers (and of
    /// each only the blocks it covers), decoded straight into one image.
    /// Nil when that would mean more than `maxJoinedTiles` tiles (render from the source then).
    /// `stop` ends it early (`ImagingError.cancelled`, `.tookTooLong`). `keptTiles` are the decoded
    /// tiles kept between regions, read and filled (nil: each tile decoded, only the blocks wanted).
    public static func renderRegion(pyramid: TilePyramid, directory: String, _ rendition: RegionRendition,
                                    settings: RenderSettings, keptTiles: RegionTileCache? = Vips.regionTiles,
                                    stop: RenderStop? = nil) throws -> [UInt8]? {
        try renderRegion(pyramid: pyramid, levelsUpTo: pyramid.maxZoom, tilePath: { tilePath(in: directory, $0) }, rendition,
                         settings: settings, keptTiles: keptTiles, stop: stop)
    }

    /// The same from tiles wherever `tilePath` finds (or makes) them: nil also when the level the
    /// region is cut from is above `top` (a photo not built yet has its low levels only).
    public static func renderRegion(pyramid: TilePyramid, levelsUpTo top: Int, tilePath: (TileCoordinate) throws -> String,
                                    _ rendition: RegionRendition, settings: RenderSettings,
                                    keptTiles: RegionTileCache? = Vips.regionTiles, stop: RenderStop? = nil) throws -> [UInt8]? {
        try Vips.ensureInitialized()
        let r = rendition.region
        let W = Double(pyramid.width), H = Double(pyramid.height)
        let needX = Double(rendition.width) / Double(r.width), needY = Double(rendition.height) / Double(r.height)
        var z = pyramid.maxZoom
        while z > 0, let below = pyramid.levelSize(z - 1),
              Double(below.width) / W >= needX * (1 - 1e-9), Double(below.height) / H >= needY * (1 - 1e-9) {
            z -= 1
        }
        let level = pyramid.levelSize(z)!
        let rect = levelRect(r, scaleX: Double(level.width) / W, scaleY: Double(level.height) / H, level: level)
        let T = pyramid.tileSize
        let columns = (rect.x / T)...((rect.x + rect.width - 1) / T)
        let rows = (rect.y / T)...((rect.y + rect.height - 1) / T)
        guard z <= top, columns.count * rows.count <= maxJoinedTiles else { return nil }
        var paths: [String] = []
        for y in rows {
            for x in columns { paths.append(try tilePath(TileCoordinate(z: z, x: x, y: y))) }
        }
        return try (stop ?? RenderStop()).guarding {
            let within = PixelRect(x: rect.x - columns.lowerBound * T, y: rect.y - rows.lowerBound * T, width: rect.width, height: rect.height)
            // A shrink is computed from the decoded tiles where they lie, in memory (libvips' reduce
            // costs about three times as much for the same kernel); an enlargement takes Lanczos.
            // A plain colour JPEG (nearly every region asked) goes from the tiles to its bytes
            // without a libvips pipeline, each of two threads shrinking and encoding half its rows.
            let shrinks = rect.width >= rendition.width && rect.height >= rendition.height
            if shrinks, rendition.format == .jpeg, rendition.tone == .color, !rendition.mirrored, rendition.degrees == 0 {
                return try VipsImage.regionJPEG(paths, columns: columns.count, tileSize: T, rect: within, width: rendition.width,
                                                height: rendition.height, quality: settings.jpegQuality, kept: keptTiles,
                                                stop: stop)
            }
            let image = shrinks
                ? try VipsImage.decodedJPEGTiles(paths, columns: columns.count, tileSize: T, rect: within,
                                                 shrunkToWidth: rendition.width, height: rendition.height, kept: keptTiles, stop: stop)
                : try scaled(try VipsImage.decodedJPEGTiles(paths, columns: columns.count, tileSize: T, rect: within, kept: keptTiles,
                                                            stop: stop),
                             toWidth: rendition.width, height: rendition.height)
            return try finish(image, rendition, settings: settings, inMemory: false, stop: stop)
        }
    }

    /// A rendition read from the photo itself, for photos whose pyramid is not built yet (and for
    /// regions too large to join from tiles): decoded shrunk where the format allows, the
    /// rectangle mapped back into the stored orientation so that only it is turned upright.
    /// `stop` ends it early (`ImagingError.cancelled`, `.tookTooLong`).
    public static func renderRegion(source: PhotoSource, _ rendition: RegionRendition, settings: RenderSettings,
                                    stop: RenderStop? = nil) throws -> [UInt8] {
        try (stop ?? RenderStop()).guarding { try renderRegionFromSource(source, rendition, settings: settings, stop: stop) }
    }

    private static func renderRegionFromSource(_ source: PhotoSource, _ rendition: RegionRendition, settings: RenderSettings,
                                               stop: RenderStop?) throws -> [UInt8] {
        let photo = try openPhoto(source, settings: settings, access: .sequential, stop: stop)
        if photo.isTIFF, let stored = try storedPyramid(source, settings: settings) {
            return try storedRegion(source: source, stored, rendition, settings: settings, stop: stop)
        }
        let info = photo.info
        let r = rendition.region
        let need = max(Double(rendition.width) / Double(r.width), Double(rendition.height) / Double(r.height))
        var factor = 1
        while factor < 8, photo.loader.shrinksOnLoad, 1 / Double(factor * 2) >= need * (1 + 1e-9) { factor *= 2 }
        let loaded = try photo.shrunk(by: factor)
        let orientation = ExifOrientation(rawValue: info.orientation) ?? .up
        let level = orientation.swapsAxes ? (width: loaded.height, height: loaded.width) : (width: loaded.width, height: loaded.height)
        let rect = levelRect(r, scaleX: Double(level.width) / Double(info.width), scaleY: Double(level.height) / Double(info.height),
                             level: level)
        let stored = orientation.storedRect(of: rect, levelWidth: level.width, levelHeight: level.height)
        let image = try displayable(loaded, background: settings.background)
        // A small rectangle is copied out row by row (a forward-only decoder never jumps, and only
        // the rectangle is held); a large one streams through the rest of the pipeline.
        let small = stored.width * stored.height <= 16 << 20
        var piece = small && photo.loader.decodesInOrder ? try image.streamedCrop(stored, stop: stop) : try image.cropped(stored)
        if orientation != .up {
            if !small { piece = try piece.guarded(by: stop).inMemory() }
            piece = try piece.autorotated()
        }
        piece = try scaled(piece, toWidth: rendition.width, height: rendition.height)
        return try finish(piece, rendition, settings: settings, inMemory: !small, stop: stop)
    }

    /// The same for a file named by its path (tools, tests).
    public static func renderRegion(source path: String, _ rendition: RegionRendition, settings: RenderSettings,
                                    stop: RenderStop? = nil) throws -> [UInt8] {
        try renderRegion(source: .file(path), rendition, settings: settings, stop: stop)
    }

    /// The level pixels that hold `region` of the full image, rounded outwards.
    static func levelRect(_ region: PixelRect, scaleX: Double, scaleY: Double, level: (width: Int, height: Int)) -> PixelRect {
        let x0 = max(0, min(level.width - 1, Int((Double(region.x) * scaleX).rounded(.down))))
        let y0 = max(0, min(level.height - 1, Int((Double(region.y) * scaleY).rounded(.down))))
        let x1 = max(x0 + 1, min(level.width, Int((Double(region.x + region.width) * scaleX - 1e-9).rounded(.up))))
        let y1 = max(y0 + 1, min(level.height, Int((Double(region.y + region.height) * scaleY - 1e-9).rounded(.up))))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Exactly `width` × `height`: resized (each axis on its own), and padded by repeating edge
    /// pixels where rounding left the result a pixel short.
    static func scaled(_ image: VipsImage, toWidth width: Int, height: Int) throws -> VipsImage {
        guard image.width != width || image.height != height else { return image }
        let h = Double(width) / Double(image.width), v = Double(height) / Double(image.height)
        // Shrinks (the region's level is under twice the size wanted) take the cheap kernel;
        // enlargements keep Lanczos, where its sharpness shows.
        var out = h <= 1 && v <= 1 ? try image.resizedLinearly(horizontal: h, vertical: v) : try image.resized(horizontal: h, vertical: v)
        if out.width < width || out.height < height {
            out = try out.padded(width: max(out.width, width), height: max(out.height, height))
        }
        if out.width > width || out.height > height {
            out = try out.cropped(PixelRect(x: 0, y: 0, width: width, height: height))
        }
        return out
    }

    /// Tone, mirroring, rotation and encoding, in that order (tone first is the same picture and
    /// leaves fewer bands to turn). `inMemory` says whether the image still streams from a photo,
    /// which turning needs copied out first.
    /// Every computation here is guarded by `stop`.
    static func finish(_ source: VipsImage, _ rendition: RegionRendition, settings: RenderSettings, inMemory large: Bool,
                       stop: RenderStop? = nil) throws -> [UInt8] {
        var image = source
        switch rendition.tone {
        case .color: break
        case .gray: image = try image.greyscale()
        case .bitonal: image = try image.greyscale().thresholded(at: 128)
        }
        let turns = rendition.degrees.truncatingRemainder(dividingBy: 90) == 0
        if large && (rendition.mirrored || rendition.degrees != 0) { image = try image.guarded(by: stop).inMemory() }
        if rendition.mirrored { image = try image.flippedHorizontally() }
        if turns {
            if rendition.degrees != 0 { image = try image.rotated(quarterTurns: Int(rendition.degrees) / 90) }
        } else {
            // Transparent corners where the format has alpha; black ones in a JPEG, as libvips
            // (and the official validator's reference image) makes them.
            if rendition.format.hasAlpha { image = try image.withAlpha() }
            let background = Array(repeating: 0.0, count: image.bands)
            image = try image.rotated(degrees: rendition.degrees, background: background)
        }
        let q = settings.jpegQuality
        image = try image.guarded(by: stop)
        switch rendition.format {
        case .jpeg: return try image.jpeg(quality: q)
        case .png: return try image.encoded(suffix: rendition.tone == .bitonal ? ".png[strip,bitdepth=1]" : ".png[strip]")
        case .webp: return try image.encoded(suffix: ".webp[Q=\(q),strip]")
        case .gif: return try image.encoded(suffix: ".gif[strip]")
        case .tiff: return try image.encoded(suffix: ".tif[compression=deflate,strip]")
        }
    }
}
