extension PhotoRenderer {
    /// One tile rendered on demand from the source (shrink-on-load for low levels, so level 0 of a 100 MP JPEG does not decode 100 MP). Bytes of a JPEG exactly the tile's size per TilePyramid.rect.
    ///
    /// The source is read sequentially and never rotated whole: the tile's rectangle is mapped
    /// back into the stored (un-rotated) photo, only that rectangle is cut out and only it is
    /// turned upright. Sequential reading stops at the tile's last row, so memory stays small even
    /// for native tiles of a huge JPEG; the price is that a tile near the bottom of a JPEG decodes
    /// every row above it (JPEG has no random access). That is why the library builds the whole
    /// pyramid once in the background and renders single tiles only until it is done.
    public static func renderTile(source: PhotoSource, tile: TileCoordinate, settings: RenderSettings) throws -> [UInt8] {
        let photo = try openPhoto(source, settings: settings, access: .sequential)
        if photo.isTIFF, let bytes = try storedTile(source: source, tile: tile, settings: settings) { return bytes }
        let info = photo.info
        let pyramid = TilePyramid(width: info.width, height: info.height, tileSize: settings.tileSize)
        guard let rect = pyramid.rect(tile), let level = pyramid.levelSize(tile.z) else {
            throw ImagingError.noSuchTile(tile)
        }
        let orientation = ExifOrientation(rawValue: info.orientation) ?? .up
        let factor = 1 << (pyramid.maxZoom - tile.z)
        let loaded = try photo.shrunk(by: factor)
        // The level in stored orientation: the upright level with width and height swapped back.
        let stored = orientation.swapsAxes ? (width: level.height, height: level.width) : level
        var image = try displayable(loaded, background: settings.background)
        if image.width != stored.width || image.height != stored.height {
            image = try image.resized(horizontal: Double(stored.width) / Double(image.width),
                                      vertical: Double(stored.height) / Double(image.height))
            if image.width < stored.width || image.height < stored.height {
                image = try image.padded(width: max(image.width, stored.width), height: max(image.height, stored.height))
            }
        }
        let storedRect = orientation.storedRect(of: rect, levelWidth: level.width, levelHeight: level.height)
        var piece = photo.loader.decodesInOrder ? try image.streamedCrop(storedRect) : try image.cropped(storedRect)
        if orientation != .up {
            piece = try piece.autorotated()
        }
        return try piece.jpeg(quality: settings.jpegQuality)
    }

    /// The same for a file named by its path (tools, tests).
    public static func renderTile(source path: String, tile: TileCoordinate, settings: RenderSettings) throws -> [UInt8] {
        try renderTile(source: .file(path), tile: tile, settings: settings)
    }
}
