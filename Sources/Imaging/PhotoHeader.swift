/// What a photo's header says that decides whether it can be taken.
public struct PhotoHeader: Hashable, Sendable {
    /// As stored (before EXIF orientation).
    public var width: Int
    public var height: Int
    public var bands: Int
    /// 1 for 8-bit samples, 2 for 16-bit, 4 for float.
    public var bytesPerSample: Int
    /// The loader's short name ("jpeg", "png", "tiff", …).
    public var format: String
    /// The file's size; 0 when unknown.
    public var fileBytes: Int
    /// The loader must hold the whole photo before its first row comes out: an interlaced PNG,
    /// a progressive JPEG, HEIC and AVIF, GIF.
    public var decodesWhole: Bool

    public init(width: Int, height: Int, bands: Int = 3, bytesPerSample: Int = 1, format: String, fileBytes: Int,
                decodesWhole: Bool = false) {
        self.width = width
        self.height = height
        self.bands = bands
        self.bytesPerSample = bytesPerSample
        self.format = format
        self.fileBytes = fileBytes
        self.decodesWhole = decodesWhole
    }

    /// The longest side the format itself can hold, when it is below libvips' own.
    var formatLimit: Int? {
        switch format {
        case "jpeg": 65_500  // libjpeg's JPEG_MAX_DIMENSION
        case "webp": 16_383
        case "heif": 65_535
        default: nil
        }
    }
}
