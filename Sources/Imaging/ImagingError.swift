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
