import Foundation
import Observability
import HTTP
import Library

/// The Photo JSON shape of DESIGN.md, written by hand so the key order is the documented one.
enum PhotoJSON {
    /// What the settings change in every record: whether originals may be downloaded (the record
    /// links to its own) and whether where a photo was taken is shared.
    struct Options: Sendable {
        var original = false
        var showLocation = false
    }

    static func object(_ photo: Photo, tileSize: Int, commentCount: Int, options: Options = Options(), place: String = "") -> String {
        let maxZoom = photo.pyramid(tileSize: tileSize)?.maxZoom ?? 0
        let v = photo.version
        var json = "{\"id\":\(photo.id),\"title\":\(jsonString(photo.title)),\"width\":\(photo.width),\"height\":\(photo.height)"
        json += ",\"tileSize\":\(tileSize),\"maxZoom\":\(maxZoom),\"version\":\"\(v)\",\"status\":\"\(photo.status.rawValue)\""
        json += ",\"commentCount\":\(commentCount),\"date\":\"\(date(photo.date))\",\"taken\":\"\(photo.taken)\""
        json += ",\"thumbnail\":\"/photos/\(photo.id)/thumbnail.jpg?v=\(v)\""
        json += ",\"tiles\":\"/photos/\(photo.id)/tiles/{z}/{x}/{y}.jpg?v=\(v)\""
        json += ",\"iiif\":\"/iiif/3/\(photo.id)/info.json\",\"dzi\":\"/photos/\(photo.id)/image.dzi?v=\(v)\""
        if options.original { json += ",\"original\":\"/photos/\(photo.id)/original\"" }
        if let details = photo.details {
            let name = photo.relativePath.split(separator: "/").last.map(String.init) ?? photo.relativePath
            json += ",\"details\":" + PhotoDetails.served(details, fileName: name, showLocation: options.showLocation)
        }
        if let error = photo.error { json += ",\"error\":\(jsonString(ClientText.photoError(error, of: photo)))" }
        return json + place + "}"
    }

    /// One photo with its place in the library: `,"position":…,"previous":…,"next":…` after the rest.
    static func placed(_ photo: Photo, position: Int, previous: Int?, next: Int?, tileSize: Int, commentCount: Int,
                       options: Options = Options()) -> String {
        let place = ",\"position\":\(position),\"previous\":\(previous.map(String.init) ?? "null"),\"next\":\(next.map(String.init) ?? "null")"
        return object(photo, tileSize: tileSize, commentCount: commentCount, options: options, place: place)
    }

    /// A page of the list: `{"photos":[…],"total":N,"next":URL|null}`.
    static func page(_ photos: [Photo], total: Int, next: String?, tileSize: Int, commentCount: (Int) -> Int,
                     options: Options = Options(), head: String = "") -> String {
        var json = "{" + head + "\"photos\":["
        json.reserveCapacity(photos.count * 320 + 64)
        for (i, photo) in photos.enumerated() {
            if i > 0 { json += "," }
            json += object(photo, tileSize: tileSize, commentCount: commentCount(photo.id), options: options)
        }
        return json + "],\"total\":\(total),\"next\":\(next.map(jsonString) ?? "null")}"
    }

    /// ISO 8601 in UTC, to the second: `2024-05-31T10:00:00Z`.
    static func date(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
