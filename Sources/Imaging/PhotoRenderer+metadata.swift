import Foundation
import POSIX

extension PhotoRenderer {
    /// Largest EXIF block read; a JPEG's APP1 segment holds at most 64 KiB.
    static let maxExifBytes = 1 << 20
    /// Largest IPTC block read.
    static let maxIPTCBytes = 1 << 20

    /// When, how and where the photo was taken, from its header alone (no pixel is decoded):
    /// EXIF, XMP and IPTC as libvips finds them in any format it reads, checked field by field.
    /// Throws what `probe` throws for a file that is no readable photo.
    public static func metadata(_ source: PhotoSource, settings: RenderSettings) throws -> PhotoMetadata {
        let opened = try openPhoto(source, settings: settings, access: .sequential)
        let image = opened.image
        let status = opened.status
        var blobs: [String: [UInt8]] = [:]
        var oversized: [(String, Int, Int)] = []
        for (field, label, limit) in [("exif-data", "EXIF", maxExifBytes), ("xmp-data", "XMP", XMPPacket.maxBytes),
                                      ("iptc-data", "IPTC", maxIPTCBytes)] {
            guard let length = image.blobLength(field) else { continue }
            if length > limit { oversized.append((label, length, limit)) } else if let bytes = image.blob(field, limit: limit) { blobs[field] = bytes }
        }
        var reader = MetadataReader(exif: blobs["exif-data"], xmp: blobs["xmp-data"], iptc: blobs["iptc-data"])
        for (label, length, limit) in oversized { reader.noteOversized(label, bytes: length, limit: limit) }
        let info = opened.info
        let modified = Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec)
        return reader.metadata(MetadataReader.FileFacts(size: Int(status.st_size), modifiedNanoseconds: modified,
                                                        mediaType: mediaType(opened), width: info.width,
                                                        height: info.height, orientation: info.orientation))
    }

    /// The same for a file named by its path (tools, tests).
    public static func metadata(_ path: String, settings: RenderSettings) throws -> PhotoMetadata {
        try metadata(.file(path), settings: settings)
    }

    /// The file's media type, by the loader that reads it (HEIF holds both HEIC and AVIF).
    static func mediaType(_ opened: OpenedPhoto) -> String {
        switch opened.loader.format {
        case "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "tiff": "image/tiff"
        case "gif": "image/gif"
        case "heif": opened.image.string("heif-compression") == "av1" ? "image/avif" : "image/heic"
        case "jxl": "image/jxl"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}
