extension PhotoRenderer {
    /// Square thumbnail (settings.thumbnailSize, centre crop / attention crop), JPEG bytes.
    ///
    /// The photo is decoded shrunk where the format allows (a 100 MP JPEG at 1/8), converted and
    /// flattened like every tile, scaled so its short side is the thumbnail size, and only then held
    /// in memory, turned upright and cropped to the most interesting square.
    public static func thumbnail(source: PhotoSource, settings: RenderSettings) throws -> [UInt8] {
        let size = settings.thumbnailSize
        let photo = try openPhoto(source, settings: settings, access: .sequential)
        if photo.isTIFF, let stored = try storedPyramid(source, settings: settings) {
            return try storedThumbnail(source: source, stored, settings: settings)
        }
        let info = photo.info
        let shortSide = min(info.width, info.height)
        var shrink = 1
        while shrink < 8 && shortSide / (shrink * 2) >= size { shrink *= 2 }
        let loaded = try photo.shrunk(by: shrink)
        let image = try displayable(loaded, background: settings.background)
        return try squareThumbnail(of: image, orientation: info.orientation, settings: settings)
    }

    /// The same for a file named by its path (tools, tests).
    public static func thumbnail(source path: String, settings: RenderSettings) throws -> [UInt8] {
        try thumbnail(source: .file(path), settings: settings)
    }

    /// The thumbnail of a photo whose pyramid is in `directory`, made from the smallest level whose
    /// short side still covers the thumbnail: a few tiles instead of another decode of the photo.
    /// Nil when even native resolution is smaller than the thumbnail (then the photo is small and
    /// cheap to read again).
    static func thumbnail(pyramid: TilePyramid, directory: String, settings: RenderSettings) throws -> [UInt8]? {
        let size = settings.thumbnailSize
        guard let z = (0...pyramid.maxZoom).first(where: { z in
            let level = pyramid.levelSize(z)!
            return min(level.width, level.height) >= size
        }) else { return nil }
        let grid = pyramid.grid(z)!
        var tiles: [VipsImage] = []
        for y in 0..<grid.rows {
            for x in 0..<grid.columns {
                let path = tilePath(in: directory, TileCoordinate(z: z, x: x, y: y))
                tiles.append(try VipsImage.open(path, access: .random))
            }
        }
        // The grid's cells are as big as its largest tile, so edge tiles leave padding past the
        // level's edges; cropping to the level's size removes it.
        let levelSize = pyramid.levelSize(z)!
        let level = try VipsImage.joined(tiles, columns: grid.columns)
            .cropped(PixelRect(x: 0, y: 0, width: levelSize.width, height: levelSize.height))
        return try squareThumbnail(of: level, orientation: 1, settings: settings)
    }

    /// Scales so the short side is the thumbnail size, turns upright, crops to the most interesting
    /// square (attention: skin, colour, edges), so a portrait's face rather than its sky fills the cell.
    ///
    /// Panoramas longer than 4:1 take their centre square instead: cut before scaling, so a
    /// 30000×300 strip never becomes a 25600×256 picture in memory just to be cropped.
    static func squareThumbnail(of source: VipsImage, orientation: Int, settings: RenderSettings) throws -> [UInt8] {
        let size = settings.thumbnailSize
        var image = source
        let short = min(image.width, image.height), long = max(image.width, image.height)
        if long > 4 * short {
            // The centre square is the same pixels whichever way the photo is turned.
            image = try image.cropped(PixelRect(x: (image.width - short) / 2, y: (image.height - short) / 2, width: short, height: short))
        }
        let scale = Double(size) / Double(min(image.width, image.height))
        // Round the scaled sides up, so that the short side is never a pixel short of `size`.
        let width = max(size, Int((Double(image.width) * scale).rounded(.up)))
        let height = max(size, Int((Double(image.height) * scale).rounded(.up)))
        image = try image.resized(horizontal: Double(width) / Double(image.width), vertical: Double(height) / Double(image.height))
        if image.width < width || image.height < height {
            image = try image.padded(width: max(width, image.width), height: max(height, image.height))
        }
        // Small now; cropping and rotating read it in any order, which a streamed decode cannot.
        // The crop is found before the photo is turned upright: the measure does not change with a
        // quarter turn or a mirror, and read in memory it needs no pipeline.
        image = try image.inMemory()
        if image.width != size || image.height != size {
            image = try image.croppedToAttention(width: size, height: size)
        }
        if orientation != 1 {
            image = try image.autorotated()
        }
        return try image.jpeg(quality: settings.jpegQuality)
    }
}
