import Foundation
import HTTP
import Library

/// GET /photos/:id/original: the file as it is on disk, byte for byte (EXIF, GPS and all: it is
/// the owner's file), as an attachment named as the file is; through a share link that does not
/// show where photos were taken, the file without its location or nothing
/// (`originalWithoutLocation`). Only a file that was read as an
/// image is ever sent, and only the very bytes that were read: opened beneath the photos
/// folder (a link swapped in is not followed), the same file as examined, and of the type its
/// first bytes say, whatever its name says. Ranges, If-None-Match and If-Range are answered by
/// the server's generic preparation from the headers set here.
extension PhotoRoutes {
    /// `keepsLocation`: whether whoever asks may know where the photo was taken (false through a
    /// link made without `location`).
    func original(_ request: HTTPRequest, keepsLocation: Bool = true) throws -> HTTPResponse {
        guard downloadOriginals else { throw HTTPError(.notFound, "Originals cannot be downloaded from this server.") }
        let photo = try find(request)
        let original: OriginalFile
        do {
            original = try library.openOriginal(photo.id)
        } catch {
            switch error {
            case .notAnImage(let why):
                let reason = why.map { " (\(ClientText.photoError($0, of: photo)))" } ?? ""
                throw HTTPError(.notFound, "Photo \(photo.id) is not an image PhotoScroll could read\(reason), so its file is not served.")
            case .changed:
                throw HTTPError(.serviceUnavailable, "The file of photo \(photo.id) changed since it was read; it is being looked at again.",
                                headers: ["Retry-After": "2"])
            case .gone:
                throw HTTPError(.notFound, "The original of photo \(photo.id) is no longer in the library.")
            }
        }
        guard keepsLocation else { return try originalWithoutLocation(original, of: photo) }
        let file = OpenFile(adopting: original.descriptor, size: original.size)
        let headers = HTTPHeaders([
            ("Content-Type", original.mediaType),
            ("Content-Disposition", ContentDisposition.attachment(filename: Self.fileName(photo.relativePath))),
            ("ETag", Self.originalTag(size: original.size, modifiedNanoseconds: original.modifiedNanoseconds)),
            ("Last-Modified", HTTPDate.format(Self.seconds(original.modifiedNanoseconds))),
            ("Cache-Control", caching.revalidate),
            ("X-Content-Type-Options", "nosniff"),
        ])
        // The length the file had when it was read, so a file growing under the request keeps to its tag.
        return HTTPResponse(headers: headers, body: .openFile(file, offset: 0, length: original.size))
    }

    /// A strong tag of the bytes on disk: any write changes the size or the modification time
    /// (nanoseconds), so a changed file never answers to an old tag, ranges included.
    static func originalTag(size: Int, modifiedNanoseconds: Int) -> String {
        "\"o" + String(size, radix: 16) + "-" + String(UInt64(bitPattern: Int64(modifiedNanoseconds)), radix: 16) + "\""
    }

    /// Whole seconds since the epoch, rounded down (before 1970 too).
    static func seconds(_ nanoseconds: Int) -> Int {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
    }

    /// The last component of a path relative to the photos folder.
    static func fileName(_ relativePath: String) -> String {
        relativePath.split(separator: "/").last.map(String.init) ?? relativePath
    }
}
