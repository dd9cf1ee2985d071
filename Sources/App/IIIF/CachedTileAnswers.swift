import HTTP
import Library
import Synchronization

/// The answers built from one cached tile or thumbnail, kept by `TileAnswers` while the
/// library holds the image and dropped with it: a hit sends bytes encoded once instead of
/// building a response.
///
/// `plain` is what `/photos/:id/tiles/…`, the thumbnail and DeepZoom answer. A IIIF answer
/// carries Link headers naming the service's absolute URL and the request's caching, so the
/// last one built is kept with what it was built for; one server nearly always sees one Host.
final class CachedTileAnswers: Sendable {
    let plain: EncodedResponse
    /// The image, the cache's own copy (`plain` sends the same buffer).
    let bytes: [UInt8]
    /// The photo version the image is of.
    let version: String
    /// The image they were made from (`TileAnswers` checks it on every read).
    let stamp: ImageStamp
    private let iiif = Mutex<IIIFAnswer?>(nil)

    /// What a IIIF answer depends on besides the tile.
    struct IIIFAnswer: Sendable {
        let photoID: Int
        /// The request's Host header (empty when a public URL is configured).
        let host: String
        /// A share link's `/s/{token}`, or empty.
        let prefix: String
        let immutable: Bool
        let answer: EncodedResponse
    }

    /// `v=<version>`: the query of the image URLs handed out for the bytes' version, spelled
    /// once, so the usual request is settled by comparing two short strings.
    let versionQuery: String

    init(plain: EncodedResponse, bytes: [UInt8], version: String, stamp: ImageStamp) {
        self.plain = plain
        self.bytes = bytes
        self.version = version
        self.stamp = stamp
        self.versionQuery = "v=" + version
    }

    /// Whether `query` names the bytes' version as its `v` (see `PhotoCaching.carriesVersion`).
    func isCurrent(_ query: String) -> Bool {
        query == versionQuery || PhotoCaching.carriesVersion(query, version)
    }

    /// The IIIF answer kept for this photo, Host and caching, if it is the one kept.
    func iiifAnswer(photoID: Int, host: String, prefix: String, immutable: Bool) -> EncodedResponse? {
        iiif.withLock { kept in
            guard let kept, kept.photoID == photoID, kept.immutable == immutable, kept.host == host, kept.prefix == prefix else { return nil }
            return kept.answer
        }
    }

    func keep(_ answer: IIIFAnswer) { iiif.withLock { $0 = answer } }
}
