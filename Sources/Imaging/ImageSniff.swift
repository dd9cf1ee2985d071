/// What an image file is, from its first bytes alone: the media type of the formats the library
/// lists, or nil for anything else. For the bytes about to be sent as an original, whatever the
/// file is called.
public enum ImageSniff {
    /// Bytes enough to tell every format here (a HEIF `ftyp` box names a few brands).
    public static let headerLength = 64

    public static func mediaType(_ header: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            header.count >= offset + prefix.count && Array(header[offset..<(offset + prefix.count)]) == prefix
        }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return "image/gif" }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return "image/webp" }
        // Classic and BigTIFF, either byte order.
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { return "image/tiff" }
        if starts(ascii("ftyp"), at: 4) { return heif(header) }
        return nil
    }

    /// An ISO base media file's `ftyp` box: its major brand and the compatible ones after it.
    private static func heif(_ header: [UInt8]) -> String? {
        let size = header.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let end = min(header.count, max(16, size))
        var brands: [String] = []
        var offset = 8
        while offset + 4 <= end {
            if offset != 12 { brands.append(String(decoding: header[offset..<(offset + 4)], as: UTF8.self)) }  // 12: minor version
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return "image/avif" }
        let heic: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]
        return brands.contains(where: heic.contains) ? "image/heic" : nil
    }
}
