/// The small JPEG an Exif block may carry, cleaned in place (its length cannot change without
/// moving every offset after it): each of its APP1…APP15 segments becomes a comment of zeros of
/// the same length, so no Exif, XMP or IPTC block of its own says where it was taken. A
/// thumbnail whose segments cannot be walked is zeroed whole.
enum Thumbnail {
    static func withoutMetadata(_ bytes: [UInt8]) -> [UInt8] {
        guard let layout = try? JPEGLayout(bytes) else { return [UInt8](repeating: 0, count: bytes.count) }
        var out = bytes
        for segment in layout.segments where (0xE1...0xEF).contains(segment.marker) {
            out[segment.payload.lowerBound - 3] = 0xFE
            for i in segment.payload { out[i] = 0 }
        }
        return out
    }
}
