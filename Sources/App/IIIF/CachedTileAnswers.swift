import HTTP
import Synchronization

/// The answers built from one cached tile or thumbnail, kept with its cache entry
/// (`TileCache.attach`) and dropped with it: a hit sends bytes encoded once instead of building
/// a response.
///
/// `plain` is what `/photos/:id/tiles/…`, the thumbnail and DeepZoom answer. A IIIF answer
/// carries Link headers naming the service's absolute URL and the request's caching, so the
/// last one built is kept with what it was built for; one server nearly always sees one Host.
final class CachedTileAnswers: Sendable {
    let plain: EncodedResponse
    private let iiif = Mutex<IIIFAnswer?>(nil)

    /// What a IIIF answer depends on besides the tile.
    struct IIIFAnswer: Sendable {
        let photoID: Int
        /// The request's Host header (empty when a public URL is configured).
        let host: String
        let immutable: Bool
        let answer: EncodedResponse
    }

    init(plain: EncodedResponse) { self.plain = plain }

    /// The IIIF answer kept for this photo, Host and caching, if it is the one kept.
    func iiifAnswer(photoID: Int, host: String, immutable: Bool) -> EncodedResponse? {
        iiif.withLock { kept in
            guard let kept, kept.photoID == photoID, kept.immutable == immutable, kept.host == host else { return nil }
            return kept.answer
        }
    }

    func keep(_ answer: IIIFAnswer) { iiif.withLock { $0 = answer } }
}
