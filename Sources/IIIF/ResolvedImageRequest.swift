/// An image request worked out for one image: which pixels, scaled to what size, turned how.
public struct ResolvedImageRequest: Hashable, Sendable {
    /// The pixels of the full image the answer shows, clipped to the image.
    public var region: PixelRegion
    /// The size the region is scaled to, before rotation.
    public var width: Int
    public var height: Int
    public var mirrored: Bool
    /// Clockwise, 0 up to (not including) 360.
    public var degrees: Double
    public var quality: ImageRequest.Quality
    public var format: ImageRequest.Format
    /// Whether the region is scaled up.
    public var upscaled: Bool
    /// Whether the region is the whole image.
    var isFull: Bool
    /// Whether the size is what `max` gives (`^max` when `upscaled`).
    var isMaxSize: Bool

    /// The canonical form of the request after the identifier, e.g. `0,0,512,512/256,256/0/default.jpg`.
    /// Spelled on demand: most answers are served from memory without it.
    public var canonicalPath: String {
        let size = isMaxSize ? (upscaled ? "^max" : "max") : (upscaled ? "^" : "") + "\(width),\(height)"
        return (isFull ? "full" : region.description) + "/" + size + "/" + (mirrored ? "!" : "")
            + ImageRequest.spell(degrees) + "/" + quality.rawValue + "." + format.rawValue
    }

    /// The size of the answer as sent: the scaled region turned (`ImageRequest.turnedBox`).
    public var answerSize: (width: Int, height: Int) { ImageRequest.turnedBox(width: width, height: height, degrees: degrees) }

    /// Whether the answer is the region's pixels in colour, scaled and nothing else: what a
    /// pyramid tile can be.
    public var isPlainColor: Bool {
        !mirrored && degrees == 0 && (quality == .default || quality == .color)
    }
}
