import Foundation
import Library
import Observability

/// A Photo as the README documents it, members in this order (`JSONWriter` keeps declaration
/// order): `GET /photos/{id}`, each photo of a page, and the live events' records.
struct PhotoRecord: Encodable {
    /// What the settings change in every record: whether originals may be downloaded (the record
    /// links to its own) and whether where a photo was taken is shared.
    struct Options: Sendable {
        var original = false
        var showLocation = false
        /// Put before every path in the record: empty, or a share link's `/s/{token}`.
        var prefix = ""
    }

    let id: Int
    let title: String
    let width: Int
    let height: Int
    let tileSize: Int
    let maxZoom: Int
    let version: String
    let status: String
    let commentCount: Int
    let date: String
    let taken: String
    let thumbnail: String
    let tiles: String
    let iiif: String
    let dzi: String
    let original: String?
    /// Stored at ingest as JSON (`PhotoDetails`), served with the file name first.
    let details: JSONFragment?
    let error: String?
    /// The photo's place in a list, only in `GET /photos/{id}`.
    var position: Int?
    var previous: Nullable<Int>?
    var next: Nullable<Int>?

    init(_ photo: Photo, tileSize: Int, commentCount: Int, options: Options = Options()) {
        let v = photo.version
        id = photo.id
        title = photo.title
        width = photo.width
        height = photo.height
        self.tileSize = tileSize
        maxZoom = photo.pyramid(tileSize: tileSize)?.maxZoom ?? 0
        version = v
        status = photo.status.rawValue
        self.commentCount = commentCount
        date = Self.date(photo.date)
        taken = photo.taken
        let p = options.prefix
        thumbnail = "\(p)/photos/\(photo.id)/thumbnail.jpg?v=\(v)"
        tiles = "\(p)/photos/\(photo.id)/tiles/{z}/{x}/{y}.jpg?v=\(v)"
        iiif = "\(p)/iiif/3/\(photo.id)/info.json"
        dzi = "\(p)/photos/\(photo.id)/image.dzi?v=\(v)"
        original = options.original ? "\(p)/photos/\(photo.id)/original" : nil
        details = photo.details.map { details in
            let name = photo.relativePath.split(separator: "/").last.map(String.init) ?? photo.relativePath
            return JSONFragment(trusted: PhotoDetails.served(details, fileName: name, showLocation: options.showLocation))
        }
        error = photo.error.map { ClientText.photoError($0, of: photo) }
    }

    /// The record with its place in the library's order (`previous` and `next` null at the ends).
    init(_ photo: Photo, position: Int, previous: Int?, next: Int?, tileSize: Int, commentCount: Int, options: Options = Options()) {
        self.init(photo, tileSize: tileSize, commentCount: commentCount, options: options)
        self.position = position
        self.previous = Nullable(previous)
        self.next = Nullable(next)
    }

    /// ISO 8601 in UTC, to the second: `2024-05-31T10:00:00Z`.
    static func date(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, inDay / 3600, inDay / 60 % 60, inDay % 60)
    }
}
