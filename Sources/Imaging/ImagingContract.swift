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

/// An 8-bit colour.
public struct RGB: Hashable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8) { self.red = red; self.green = green; self.blue = blue }
}

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

/// Why a photo cannot be shown, in words a person understands.
public enum ImagingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not an image any loader recognises (text, empty file, unknown format).
    case notAnImage(String)
    /// An image whose data is damaged or cut short.
    case corrupt(String)
    /// Too large to take (`PhotoSizeRule`); refused from the header.
    case tooLarge(SizeRefusal)
    /// The tile is not in the pyramid.
    case noSuchTile(TileCoordinate)
    /// A file could not be read or written.
    case io(String)
    /// Anything else libvips reported.
    case vips(String)
    /// The render was stopped because nobody waits for it any more (`RenderStop.cancel`).
    case cancelled
    /// The render ran longer than its `RenderStop` allowed.
    case tookTooLong(seconds: Double)

    private static func spell(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    public var description: String {
        switch self {
        case .notAnImage(let why): "This file is not an image PhotoScroll can read (\(why))."
        case .corrupt(let why): "This image is damaged or incomplete (\(why))."
        case .tooLarge(let refusal): refusal.description
        case .noSuchTile(let tile): "Tile \(tile) is outside the pyramid."
        case .io(let why): "A file could not be read or written (\(why))."
        case .vips(let why): "The image could not be processed (\(why))."
        case .cancelled: "The render was stopped: nobody waits for it any more."
        case .tookTooLong(let seconds): "The render took longer than the \(ImagingError.spell(seconds)) s this server allows one."
        }
    }
}
