extension PhotoRenderer {
    /// The image as PhotoScroll serves every pixel: three 8-bit sRGB bands, alpha flattened.
    ///
    /// Colour goes through the embedded ICC profile when there is one (so a CMYK or Adobe RGB
    /// photo keeps its colours), through libvips' built-in CMYK profile for bare CMYK, and through
    /// a plain colourspace conversion otherwise (greyscale, 16-bit, Lab, and photos whose profile
    /// says sRGB: lcms would change nothing but cost time). Greyscale photos become
    /// three equal bands, so every tile has the same shape. Conversions are skipped when the image
    /// already is 8-bit sRGB, which keeps the common JPEG path a straight copy.
    static func displayable(_ source: VipsImage, background: RGB) throws -> VipsImage {
        var image = source
        if image.hasICCProfile, !(image.iccProfile.flatMap(ICCProfile.init)?.isSRGB ?? false) {
            // A profile lcms cannot use is common enough in the wild (cut by an editor, wrong
            // colour space): then the colours go through libvips' defaults rather than failing.
            if let converted = try? image.iccToSRGB(fallbackProfile: nil) {
                image = converted
            } else {
                image = image.isCMYK ? try image.iccToSRGB(fallbackProfile: "cmyk") : try image.toSRGB()
            }
        } else if image.isCMYK {
            image = try image.iccToSRGB(fallbackProfile: "cmyk")
        } else if !image.isSRGB || !image.isEightBit {
            image = try image.toSRGB()
        }
        if !image.isEightBit {
            image = try image.castToUChar()
        }
        if image.hasAlpha {
            image = try image.flattened(onto: background, maxAlpha: 255)
        }
        if image.bands > 3 {
            image = try image.bands(0, count: 3)
        }
        if image.bands < 3 || !image.isSRGB {
            image = try image.toSRGB()
        }
        return image
    }
}
