import HTTP
import JPEGMetadata
import Library
import POSIX

/// An original through a share link that does not show where photos were taken: the file with
/// its location taken out of its metadata (Exif GPS, XMP places, IPTC location), its image data
/// byte for byte, or nothing. Only JPEG can be cleaned so; any other format, and a JPEG whose
/// metadata cannot be read safely, is refused (404) rather than sent with its location.
extension PhotoRoutes {
    func originalWithoutLocation(_ original: OriginalFile, of photo: Photo) throws -> HTTPResponse {
        defer { original.descriptor.close() }
        let refusal = "This link does not share where photos were taken, and"
        guard original.mediaType == "image/jpeg" else {
            throw HTTPError(.notFound, "\(refusal) the location of this file (\(original.mediaType)) cannot be removed, so its original is not sent.")
        }
        var bytes = [UInt8](repeating: 0, count: original.size)
        let read = (try? bytes.withUnsafeMutableBytes { buffer throws(SystemCallError) in
            try original.descriptor.read(into: buffer, fromOffset: 0)
        }) ?? -1
        guard read == original.size else {
            throw HTTPError(.serviceUnavailable, "The file of photo \(photo.id) changed while it was read; it is being looked at again.",
                            headers: ["Retry-After": "2"])
        }
        let cleaned: [UInt8]
        do {
            cleaned = try JPEGLocation.removed(from: bytes)
        } catch {
            throw HTTPError(.notFound, "\(refusal) the location of this file cannot be removed safely (\(error.reason)), so its original is not sent.")
        }
        let headers = HTTPHeaders([
            ("Content-Type", original.mediaType),
            ("Content-Disposition", ContentDisposition.attachment(filename: Self.fileName(photo.relativePath))),
            ("ETag", Self.originalTagWithoutLocation(size: original.size, modifiedNanoseconds: original.modifiedNanoseconds)),
            ("Last-Modified", HTTPDate.format(Self.seconds(original.modifiedNanoseconds))),
            ("Cache-Control", caching.revalidate),
            ("X-Content-Type-Options", "nosniff"),
        ])
        // Bytes in memory: their length, ranges and conditions are the server's generic preparation's.
        return HTTPResponse(headers: headers, body: .bytes(cleaned))
    }

    /// The tag of the cleaned bytes: made from the same file's, and never equal to it, so a cache
    /// or a range request never mixes the file's bytes with the cleaned ones.
    static func originalTagWithoutLocation(size: Int, modifiedNanoseconds: Int) -> String {
        String(originalTag(size: size, modifiedNanoseconds: modifiedNanoseconds).dropLast()) + "-nolocation\""
    }
}
