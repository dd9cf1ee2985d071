extension PhotoRenderer {
    /// Square thumbnail (settings.thumbnailSize, centre crop / attention crop), JPEG bytes.
    ///
    /// libvips' thumbnail shrinks while decoding (a 100 MP JPEG decodes at 1/8 size), applies the
    /// EXIF orientation and crops to the most interesting square (attention: skin, colour, edges),
    /// so a portrait's face rather than its sky fills the grid cell.
    public static func thumbnail(source: String, settings: RenderSettings) throws -> [UInt8] {
        _ = try openChecked(source, settings: settings, access: .sequential)
        let square = try VipsImage.thumbnail(source, size: settings.thumbnailSize, attention: true)
        return try displayable(square, background: settings.background).jpeg(quality: settings.jpegQuality)
    }
}
