import Foundation
import POSIX

/// A photo whose header passed the checks, ready to decode.
struct OpenedPhoto {
    let source: PhotoSource
    /// Full size, as stored (before EXIF orientation).
    let image: VipsImage
    let loader: LoaderKind
    let access: VipsAccessPattern
    /// The file's status when it was opened.
    let status: FileStatus
    /// What every read of the file asks first, if anything.
    var stop: RenderStop? = nil

    /// Whether libvips reads it as a TIFF (which may be a pyramid served in place).
    var isTIFF: Bool { loader.format == "tiff" }

    /// What the header says, with width and height as the photo stands upright.
    var info: ImageInfo {
        let orientation = image.orientation
        let swaps = orientation >= 5 && orientation <= 8
        return ImageInfo(width: swaps ? image.height : image.width, height: swaps ? image.width : image.height,
                         orientation: orientation, format: loader.format)
    }

    /// The photo decoded at 1/`factor` of its size where the loader can shrink while decoding
    /// (JPEG, WebP; a power of two up to 8); otherwise at full size.
    func shrunk(by factor: Int) throws -> VipsImage {
        guard factor > 1, loader.shrinksOnLoad else { return image }
        return try VipsImage.open(source, access: access, shrink: min(8, factor), stop: stop).image
    }
}
