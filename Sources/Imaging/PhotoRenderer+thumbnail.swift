extension PhotoRenderer {
    /// Square thumbnail (settings.thumbnailSize, centre crop / attention crop), JPEG bytes.
    ///
    /// The photo is decoded shrunk where the format allows (a 100 MP JPEG at 1/8), converted and
    /// flattened like every tile, scaled so its short side is the thumbnail size, and only then held
    /// in memory, turned upright and cropped to the most interesting square (attention: skin,
    /// colour, edges), so a portrait's face rather than its sky fills the grid cell.
    public static func thumbnail(source: String, settings: RenderSettings) throws -> [UInt8] {
        let size = settings.thumbnailSize
        let info = try probe(source, settings: settings)
        let shortSide = min(info.width, info.height)
        var shrink = 1
        while shrink < 8 && shortSide / (shrink * 2) >= size { shrink *= 2 }
        let (loaded, _) = try openChecked(source, settings: settings, access: .sequential, shrink: shrink)
        var image = try displayable(loaded, background: settings.background)
        let scale = Double(size) / Double(min(image.width, image.height))
        // Round the scaled sides up, so that the short side is never a pixel short of `size`.
        let width = max(size, Int((Double(image.width) * scale).rounded(.up)))
        let height = max(size, Int((Double(image.height) * scale).rounded(.up)))
        image = try image.resized(horizontal: Double(width) / Double(image.width), vertical: Double(height) / Double(image.height))
        if image.width < width || image.height < height {
            image = try image.padded(width: max(width, image.width), height: max(height, image.height))
        }
        image = try image.inMemory()
        if info.orientation != 1 {
            image = try image.autorotated()
        }
        if image.width != size || image.height != size {
            image = try image.croppedToAttention(width: size, height: size)
        }
        return try image.jpeg(quality: settings.jpegQuality)
    }
}
