import Foundation
import HTTP
import Library

/// GET /photos/:id/original: the file as it is on disk, byte for byte (EXIF, GPS and all: it is
/// the owner's file), as an attachment named as the file is. Ranges, If-None-Match and
/// If-Range are answered by the server's generic preparation from the headers set here.
extension PhotoRoutes {
    func original(_ request: HTTPRequest) throws -> HTTPResponse {
        guard downloadOriginals else { throw HTTPError(.notFound, "Originals cannot be downloaded from this server.") }
        let photo = try find(request)
        var info = stat()
        guard stat(photo.sourcePath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            library.requestRescan()
            throw HTTPError(.notFound, "The original of photo \(photo.id) is no longer in the library.")
        }
        let size = Int(info.st_size)
        let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        let headers = HTTPHeaders([
            ("Content-Type", Self.mediaType(ofFile: photo.relativePath)),
            ("Content-Disposition", ContentDisposition.attachment(filename: Self.fileName(photo.relativePath))),
            ("ETag", Self.originalTag(size: size, modifiedNanoseconds: modified)),
            ("Last-Modified", HTTPDate.format(Int(info.st_mtim.tv_sec))),
            ("Cache-Control", caching.revalidate),
            // A failed "photo" may be any file at all: never let a browser guess it is a page.
            ("X-Content-Type-Options", "nosniff"),
        ])
        // The length as stat saw it, so a file growing under the request keeps to its tag.
        return HTTPResponse(headers: headers, body: .file(path: photo.sourcePath, offset: 0, length: size))
    }

    /// A strong tag of the bytes on disk: any write changes the size or the modification time
    /// (nanoseconds), so a changed file never answers to an old tag, ranges included.
    static func originalTag(size: Int, modifiedNanoseconds: Int) -> String {
        "\"o" + String(size, radix: 16) + "-" + String(UInt64(bitPattern: Int64(modifiedNanoseconds)), radix: 16) + "\""
    }

    /// The last component of a path relative to the photos folder.
    static func fileName(_ relativePath: String) -> String {
        relativePath.split(separator: "/").last.map(String.init) ?? relativePath
    }

    /// The media type of a photo file by its extension (the folder only lists these).
    static func mediaType(ofFile name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "jpg", "jpeg", "jpe": return "image/jpeg"
        case "png": return "image/png"
        case "webp": return "image/webp"
        case "tif", "tiff": return "image/tiff"
        case "gif": return "image/gif"
        case "heic": return "image/heic"
        case "heif": return "image/heif"
        case "avif": return "image/avif"
        default: return "application/octet-stream"
        }
    }
}
