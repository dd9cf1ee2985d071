import Foundation
import POSIX

/// Turns photo files into what PhotoScroll serves: pyramids of 8-bit sRGB JPEG tiles and square
/// thumbnails, upright by EXIF, alpha flattened, metadata stripped.
///
/// Every entry point reads the header first and refuses photos `settings.sizeRule` refuses
/// before a single pixel is decoded.
public enum PhotoRenderer {
    /// Header only, no pixel decode: size after EXIF orientation, orientation, format.
    /// Throws ImagingError.tooLarge when `settings.sizeRule` refuses it, .notAnImage for empty/unknown files, .corrupt when the header is damaged.
    public static func probe(_ source: PhotoSource, settings: RenderSettings) throws -> ImageInfo {
        try openPhoto(source, settings: settings, access: .sequential).info
    }

    /// The same for a file named by its path (tools, tests).
    public static func probe(_ path: String, settings: RenderSettings) throws -> ImageInfo {
        try probe(.file(path), settings: settings)
    }

    /// Where buildPyramid puts a tile: "\(directory)/\(z)/\(x)_\(y).jpg".
    public static func tilePath(in directory: String, _ tile: TileCoordinate) -> String {
        "\(directory)/\(tile.z)/\(tile.x)_\(tile.y).jpg"
    }

    /// Opens a photo after checking that it is a readable, recognised image within the pixel limit.
    /// Only the header has been read when this returns.
    /// `stop` (a rendition's) is asked before every read of the file.
    static func openPhoto(_ source: PhotoSource, settings: RenderSettings, access: VipsAccessPattern,
                          stop: RenderStop? = nil) throws -> OpenedPhoto {
        try Vips.ensureInitialized()
        let opened = try VipsImage.open(source, access: access, stop: stop)
        try checkSize(opened, settings: settings)
        return OpenedPhoto(source: source, image: opened.image, loader: opened.loader, access: access, status: opened.status, stop: stop)
    }

    /// Refuses photos whose header says they cannot be built within the size rule, before any decode.
    static func checkSize(_ opened: VipsImage.Opened, settings: RenderSettings) throws {
        let image = opened.image, format = opened.loader.format
        // What a loader holds whole before its first row: an interlaced PNG's passes, a
        // progressive JPEG's coefficients, a HEIC or GIF frame.
        let whole = format == "heif" || format == "gif" || ((format == "png" || format == "jpeg") && image.integer("interlaced") == 1)
        let header = PhotoHeader(width: image.width, height: image.height, bands: image.bands, bytesPerSample: image.bytesPerSample,
                                 format: format, fileBytes: opened.status.size, decodesWhole: whole)
        if let refusal = settings.sizeRule.refusal(header) { throw ImagingError.tooLarge(refusal) }
    }
}
