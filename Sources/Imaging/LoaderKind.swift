import Foundation

/// The loader libvips picked for a file, by what we need to know about it.
struct LoaderKind: Equatable {
    /// libvips' class name, e.g. "VipsForeignLoadJpegSource".
    let className: String

    /// Short format name for ImageInfo: "jpeg", "png", "webp", "tiff", "gif", "heif".
    var format: String {
        let trimmed = className.replacingOccurrences(of: "VipsForeignLoad", with: "")
            .replacingOccurrences(of: "Source", with: "").lowercased()
        return trimmed == "nsgif" ? "gif" : trimmed
    }

    /// Loaders that decode top to bottom and can shrink while decoding.
    var shrinksOnLoad: Bool { format == "jpeg" || format == "webp" }

    /// Loaders that only decode forwards, row after row: a rectangle far down must be reached by
    /// streaming past the rows above it, or libvips holds the whole photo to serve it.
    var decodesInOrder: Bool { format == "jpeg" || format == "png" }
}
