import Observability
import HTTP
import Library

/// The Photo JSON shape of DESIGN.md, written by hand so the key order is the documented one.
enum PhotoJSON {
    /// `original`: whether originals may be downloaded, so the record links to its own.
    static func object(_ photo: Photo, tileSize: Int, commentCount: Int, original: Bool = false) -> String {
        let maxZoom = photo.pyramid(tileSize: tileSize)?.maxZoom ?? 0
        let v = photo.version
        var json = "{\"id\":\(photo.id),\"title\":\(jsonString(photo.title)),\"width\":\(photo.width),\"height\":\(photo.height)"
        json += ",\"tileSize\":\(tileSize),\"maxZoom\":\(maxZoom),\"version\":\"\(v)\",\"status\":\"\(photo.status.rawValue)\""
        json += ",\"commentCount\":\(commentCount)"
        json += ",\"thumbnail\":\"/photos/\(photo.id)/thumbnail.jpg?v=\(v)\""
        json += ",\"tiles\":\"/photos/\(photo.id)/tiles/{z}/{x}/{y}.jpg?v=\(v)\""
        json += ",\"iiif\":\"/iiif/3/\(photo.id)/info.json\",\"dzi\":\"/photos/\(photo.id)/image.dzi?v=\(v)\""
        if original { json += ",\"original\":\"/photos/\(photo.id)/original\"" }
        if let error = photo.error { json += ",\"error\":\(jsonString(ClientText.photoError(error, of: photo)))" }
        return json + "}"
    }

    static func list(_ photos: [Photo], tileSize: Int, commentCount: (Int) -> Int, original: Bool = false) -> String {
        "{\"photos\":[" + photos.map { object($0, tileSize: tileSize, commentCount: commentCount($0.id), original: original) }
            .joined(separator: ",") + "]}"
    }
}
