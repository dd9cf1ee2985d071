/// A rectangle of a photo scaled to a size, optionally mirrored, rotated, made grey or black and
/// white, and encoded: what a region request asks libvips for, in Imaging's own terms.
public struct RegionRendition: Hashable, Sendable {
    /// In pixels of the upright photo at native resolution; inside the photo, never empty.
    public var region: PixelRect
    /// The size the region is scaled to, before rotation; at least 1 × 1.
    public var width: Int
    public var height: Int
    /// Mirrored across the vertical axis before rotating.
    public var mirrored: Bool
    /// Clockwise, 0 ≤ degrees < 360; multiples of 90 are exact, others fill the corners.
    public var degrees: Double
    public var tone: Tone
    public var format: ImageFormat

    public init(region: PixelRect, width: Int, height: Int, mirrored: Bool = false, degrees: Double = 0,
                tone: Tone = .color, format: ImageFormat = .jpeg) {
        precondition(region.width > 0 && region.height > 0 && width > 0 && height > 0)
        self.region = region
        self.width = width
        self.height = height
        self.mirrored = mirrored
        self.degrees = degrees
        self.tone = tone
        self.format = format
    }

    /// The colours of the result.
    public enum Tone: String, Hashable, Sendable {
        case color
        /// One band of luminance.
        case gray
        /// One band, every pixel 0 or 255.
        case bitonal
    }

    /// What the pixels are encoded as.
    public enum ImageFormat: String, Hashable, Sendable {
        case jpeg, png, webp, gif, tiff

        /// Whether corners left by an arbitrary rotation can be transparent.
        var hasAlpha: Bool { self != .jpeg }
    }

    /// Names the rendition uniquely, for cache keys: `x,y,w,h/w,h/!r/tone.format`.
    public var name: String {
        "\(region.x),\(region.y),\(region.width),\(region.height)/\(width),\(height)/\(mirrored ? "!" : "")\(degrees)/\(tone.rawValue).\(format.rawValue)"
    }
}
