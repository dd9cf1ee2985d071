/// What decides, from a photo's header alone, whether it can be taken: no fixed pixel count, but
/// whether its build fits in a stated working memory, within its format's own limits, and not a
/// decompression bomb.
///
/// The build streams (docs/imaging.md): it holds a few strips of tile rows a level, so its memory
/// grows with the photo's width, not its area. A 40000×24000 JPEG needs about 150 MB to build,
/// a 65500-pixel-wide one (JPEG's limit) about 250 MB. Only what a loader must hold whole (an
/// interlaced PNG, a progressive JPEG's coefficients, HEIC) costs its area.
public struct PhotoSizeRule: Hashable, Sendable {
    /// A fixed cap in pixels on top of the rest (0: none).
    public var maxImagePixels: Int
    /// Bytes one photo's build may hold in working memory.
    public var buildMemoryBytes: Int
    /// The pyramid's tile edge: the build holds strips this many rows high.
    public var tileSize: Int

    /// Tile-high strips the streamed build holds at once, counting every level: two a level at
    /// halving widths make four at the top level's width, and one more for the decoder's buffer.
    static let stripsHeld = 5
    /// Decoded bytes one byte of file may claim at most. Deflate gives at most 1032 to 1 and a
    /// JPEG about 500 to 1 (two bits a block of 64 pixels); a header claiming far more is a
    /// decompression bomb, whatever its pixel count.
    static let largestRatio = 4096
    /// libvips' largest image side.
    static let largestSide = 10_000_000

    public init(maxImagePixels: Int = 0, buildMemoryBytes: Int = 1024 << 20, tileSize: Int = 256) {
        self.maxImagePixels = maxImagePixels
        self.buildMemoryBytes = buildMemoryBytes
        self.tileSize = tileSize
    }

    /// Why a photo with this header cannot be taken, or nil when it can.
    public func refusal(_ header: PhotoHeader) -> SizeRefusal? {
        let (w, h) = (header.width, header.height)
        guard w > 0, h > 0 else { return nil }
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        if let side = header.formatLimit, max(w, h) > side {
            return .overFormatLimit(width: w, height: h, format: header.format, side: side)
        }
        if overflow || max(w, h) > Self.largestSide {
            return .overFormatLimit(width: w, height: h, format: "libvips", side: Self.largestSide)
        }
        if maxImagePixels > 0, pixels > maxImagePixels {
            return .overPixelCap(width: w, height: h, limit: maxImagePixels)
        }
        let sampleBytes = max(1, header.bands) * max(1, header.bytesPerSample)
        let decoded = pixels.multipliedReportingOverflow(by: sampleBytes)
        if header.fileBytes > 0, decoded.overflow || decoded.partialValue / header.fileBytes > Self.largestRatio {
            return .decompressionBomb(width: w, height: h, fileBytes: header.fileBytes)
        }
        let needed = buildMemory(header)
        if needed > buildMemoryBytes {
            return .overMemoryBound(width: w, height: h, neededMegabytes: (needed + (1 << 20) - 1) >> 20,
                                    boundMegabytes: buildMemoryBytes >> 20)
        }
        return nil
    }

    /// Bytes the build of a photo with this header holds at its peak, about.
    public func buildMemory(_ header: PhotoHeader) -> Int {
        // The build decodes at the photo's own depth and works in three 8-bit bands.
        let rowBytes = header.width * max(3, max(1, header.bands) * max(1, header.bytesPerSample))
        let streamed = rowBytes.multipliedReportingOverflow(by: Self.stripsHeld * tileSize)
        if streamed.overflow { return Int.max }
        guard header.decodesWhole else { return streamed.partialValue }
        let whole = rowBytes.multipliedReportingOverflow(by: header.height)
        return whole.overflow ? Int.max : whole.partialValue + streamed.partialValue
    }
}
