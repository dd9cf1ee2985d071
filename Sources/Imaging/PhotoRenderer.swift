import Foundation

/// Turns photo files into what PhotoScroll serves: pyramids of 8-bit sRGB JPEG tiles and square
/// thumbnails, upright by EXIF, alpha flattened, metadata stripped.
///
/// Every entry point reads the header first and refuses photos over `settings.maxImagePixels`
/// before a single pixel is decoded.
public enum PhotoRenderer {
    /// Header only, no pixel decode: size after EXIF orientation, orientation, format.
    /// Throws ImagingError.tooLarge when width*height > settings.maxImagePixels, .notAnImage for empty/unknown files, .corrupt when the header is damaged.
    public static func probe(_ path: String, settings: RenderSettings) throws -> ImageInfo {
        let (image, loader) = try openChecked(path, settings: settings, access: .sequential)
        let orientation = image.orientation
        let swaps = orientation >= 5 && orientation <= 8
        return ImageInfo(width: swaps ? image.height : image.width, height: swaps ? image.width : image.height,
                         orientation: orientation, format: loader.format)
    }

    /// Where buildPyramid puts a tile: "\(directory)/\(z)/\(x)_\(y).jpg".
    public static func tilePath(in directory: String, _ tile: TileCoordinate) -> String {
        "\(directory)/\(tile.z)/\(tile.x)_\(tile.y).jpg"
    }

    /// Opens a photo after checking that it is a readable, recognised image within the pixel limit.
    ///
    /// `shrink` asks loaders that can (JPEG, WebP) to decode at 1/shrink of the size; the pixel limit
    /// is always checked against the full-size header.
    static func openChecked(_ path: String, settings: RenderSettings, access: VipsAccessPattern,
                            shrink: Int = 1) throws -> (VipsImage, LoaderKind) {
        try Vips.ensureInitialized()
        let size = try fileSize(path)
        guard size > 0 else { throw ImagingError.notAnImage("the file is empty") }
        guard let loader = VipsImage.loader(for: path) else {
            throw ImagingError.notAnImage("no image format recognised")
        }
        let header = try VipsImage.open(path, access: access)
        try checkPixelLimit(width: header.width, height: header.height, settings: settings)
        guard shrink > 1, loader.shrinksOnLoad else { return (header, loader) }
        return (try VipsImage.open(path, access: access, shrink: shrink), loader)
    }

    /// Refuses photos whose header promises more pixels than the limit, before any decode.
    static func checkPixelLimit(width: Int, height: Int, settings: RenderSettings) throws {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > settings.maxImagePixels {
            throw ImagingError.tooLarge(width: width, height: height, limit: settings.maxImagePixels)
        }
    }

    private static func fileSize(_ path: String) throws -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ImagingError.io("\(path): \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw ImagingError.notAnImage("not a regular file") }
        return Int(status.st_size)
    }
}
