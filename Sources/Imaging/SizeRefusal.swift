/// Why a photo is refused from its header, with the setting that would allow it, if any.
public enum SizeRefusal: Hashable, Sendable, CustomStringConvertible {
    /// A side longer than the format (or libvips) can hold.
    case overFormatLimit(width: Int, height: Int, format: String, side: Int)
    /// More pixels than `maxImagePixels`.
    case overPixelCap(width: Int, height: Int, limit: Int)
    /// A small file claiming far more pixels than any codec packs into its bytes.
    case decompressionBomb(width: Int, height: Int, fileBytes: Int)
    /// Building it needs more working memory than `buildMemoryMegabytes`.
    case overMemoryBound(width: Int, height: Int, neededMegabytes: Int, boundMegabytes: Int)

    public var description: String {
        switch self {
        case .overFormatLimit(let w, let h, let format, let side):
            "This image is \(w)×\(h), longer than the \(side) pixels a side \(format) can hold."
        case .overPixelCap(let w, let h, let limit):
            "This image is \(w)×\(h) = \(w * h) pixels, more than the limit of \(limit) (maxImagePixels; 0 lets the memory bound decide)."
        case .decompressionBomb(let w, let h, let bytes):
            "This image claims \(w)×\(h) pixels in a file of \(bytes) bytes, more than any real photo packs in: a decompression bomb."
        case .overMemoryBound(let w, let h, let needed, let bound):
            "This image is \(w)×\(h); building it needs about \(needed) MB of memory, more than the \(bound) MB of buildMemoryMegabytes, which would allow it when raised."
        }
    }
}
