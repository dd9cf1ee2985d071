/// Settings that shape every rendered tile and thumbnail; part of a photo's version.
public struct RenderSettings: Hashable, Sendable {
    public var tileSize: Int
    public var jpegQuality: Int
    public var thumbnailSize: Int
    /// Colour that alpha is flattened onto.
    public var background: RGB
    /// A fixed cap in pixels (W × H), checked from the header before any decode (0: none; the
    /// memory bound decides).
    public var maxImagePixels: Int
    /// Working memory one photo's build may hold; photos that need more are refused from their
    /// header (`PhotoSizeRule`).
    public var buildMemoryBytes: Int

    public init(tileSize: Int = 256, jpegQuality: Int = 85, thumbnailSize: Int = 256,
                background: RGB = RGB(red: 255, green: 255, blue: 255), maxImagePixels: Int = 0,
                buildMemoryBytes: Int = 1024 << 20) {
        self.tileSize = tileSize
        self.jpegQuality = jpegQuality
        self.thumbnailSize = thumbnailSize
        self.background = background
        self.maxImagePixels = maxImagePixels
        self.buildMemoryBytes = buildMemoryBytes
    }

    /// What decides whether a photo is too large to take.
    public var sizeRule: PhotoSizeRule {
        PhotoSizeRule(maxImagePixels: maxImagePixels, buildMemoryBytes: buildMemoryBytes, tileSize: tileSize)
    }
}
