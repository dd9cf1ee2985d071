/// What a photo's header says, read without decoding its pixels.
public struct ImageInfo: Hashable, Sendable {
    /// Size after EXIF orientation is applied (a 6 or 8 swaps width and height).
    public var width: Int
    public var height: Int
    /// EXIF orientation 1–8 (1 when absent).
    public var orientation: Int
    /// The loader's format name, e.g. "jpeg", "png", "webp", "tiff", "heif".
    public var format: String
}
