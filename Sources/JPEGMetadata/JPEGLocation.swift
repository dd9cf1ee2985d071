/// A JPEG without where it was taken, its image data untouched: a pure function over bytes.
///
/// The marker segments before the first scan are walked and rewritten; from the first SOS marker
/// to the EOI marker every byte is copied as it is, so the pixels decode exactly as before.
///
/// - APP1 Exif: the GPS directory goes (`ExifLocation`); the camera, date, orientation stay.
/// - APP1 XMP: place properties go (`XMPLocation`); a packet that cannot be edited safely goes whole.
/// - APP1 extended XMP: kept only when it holds no place at all, else every chunk of it goes
///   (its GUID is the digest of its text, which an edit would make wrong).
/// - APP13 Photoshop: IPTC location datasets go (`IPTCLocation`).
/// - APP11 (JUMBF, where C2PA content credentials sit, with their own copy of the metadata) and
///   APP2 `MPF` (an index of images after the EOI) go, and so does everything after the EOI:
///   secondary images and trailers carry metadata of their own.
///
/// Anything that cannot be walked safely (a length past the end, a directory outside its block,
/// an unknown Photoshop resource) throws: the caller then sends nothing.
public enum JPEGLocation {
    static let exifHeader = Array("Exif\u{0}".utf8)
    static let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8)
    static let extendedXMPHeader = Array("http://ns.adobe.com/xmp/extension/\u{0}".utf8)
    static let mpfHeader = Array("MPF\u{0}".utf8)

    /// `jpeg` without its location, or an error saying what could not be read.
    public static func removed(from jpeg: [UInt8]) throws(JPEGLocationError) -> [UInt8] {
        let layout = try JPEGLayout(jpeg)
        let keptExtendedXMP = try ExtendedXMP.placeless(jpeg, layout.segments)
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(jpeg.count)
        for segment in layout.segments {
            let payload = Array(jpeg[segment.payload])
            var rewritten: [UInt8]? = payload
            switch segment.marker {
            case 0xE1 where payload.hasBytes(exifHeader):
                // "Exif\0" and one more byte (a zero, or 0xFF in a few writers), then the TIFF block.
                guard payload.count >= 6 else { throw JPEGLocationError("the Exif block is empty") }
                rewritten = Array(payload[..<6]) + (try ExifLocation.removed(Array(payload[6...])))
            case 0xE1 where payload.hasBytes(xmpHeader):
                rewritten = XMPLocation.removed(payload[xmpHeader.count...]).map { xmpHeader + $0 }
            case 0xE1 where payload.hasBytes(extendedXMPHeader):
                if !keptExtendedXMP.contains(segment.payload.lowerBound) { rewritten = nil }
            case 0xED where payload.hasBytes(IPTCLocation.header):
                rewritten = IPTCLocation.header + (try IPTCLocation.removed(Array(payload[IPTCLocation.header.count...])))
            case 0xEB:
                rewritten = nil
            case 0xE2 where payload.hasBytes(mpfHeader):
                rewritten = nil
            default:
                break
            }
            guard let rewritten else { continue }
            guard rewritten.count + 2 <= 0xFFFF else { throw JPEGLocationError("a rewritten segment would not fit") }
            out += [0xFF, segment.marker, UInt8((rewritten.count + 2) >> 8), UInt8((rewritten.count + 2) & 0xFF)]
            out += rewritten
        }
        out += jpeg[layout.image]
        return out
    }
}
