import Access
import Library

/// Which photos a request sees, and how its answers name them: the whole library, or what one
/// share link shows (an album's photos, a folder's, or one photo) with paths under the link's
/// `/s/{token}`.
struct PhotoView: Sendable {
    enum Scope: Sendable, Equatable {
        case library
        /// The photos directly in a folder, by the folder's id.
        case folder(Int)
        /// An album's photos as they were when the request came, and their order when the album
        /// is shown in its own (nil: by date taken).
        case album(Int, photos: Set<Int>, order: [Int]?)
        case photo(Int)
    }

    let scope: Scope
    /// Put before every path an answer holds: empty for the library, `/s/{token}` for a link.
    let prefix: String
    /// Whether records link to originals.
    let original: Bool
    /// Whether records say where photos were taken.
    let showLocation: Bool
    /// Whether comments (and their counts) are shown.
    let comments: Bool

    /// The library as the settings show it.
    static func library(original: Bool, showLocation: Bool) -> PhotoView {
        PhotoView(scope: .library, prefix: "", original: original, showLocation: showLocation, comments: true)
    }

    /// What `share` shows: originals only if the link allows them (and the server does), where
    /// photos were taken only if the link allows it, whatever `showLocation` says. `albumPhotos`
    /// gives an album's photos and its own order if it is shown in one (nil for an album deleted
    /// since: the link shows nothing).
    static func shared(_ share: Share, downloadOriginals: Bool,
                       albumPhotos: (Int) throws -> (ids: Set<Int>, order: [Int]?)?) rethrows -> PhotoView {
        let scope: Scope = switch share.target {
        case .album(let id):
            if let photos = try albumPhotos(id) { .album(id, photos: photos.ids, order: photos.order) } else { .album(id, photos: [], order: nil) }
        case .folder(let id): .folder(id)
        case .photo(let id): .photo(id)
        }
        return PhotoView(scope: scope, prefix: "/s/" + share.token, original: share.download && downloadOriginals,
                         showLocation: share.location, comments: share.comments)
    }

    /// The catalog's scope for lists, or nil for one photo.
    var listScope: PhotoScope? {
        switch scope {
        case .library: .library
        case .folder(let id): .album(id)
        case .album(_, let photos, let order): order.map { .sequence($0) } ?? .members(photos)
        case .photo: nil
        }
    }

    var isLibrary: Bool { scope == .library }

    /// What records say.
    var options: PhotoRecord.Options {
        PhotoRecord.Options(original: original, showLocation: showLocation, prefix: prefix)
    }
}
