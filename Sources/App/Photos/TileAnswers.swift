import HTTP
import Imaging
import Library

/// The answers encoded from cached tiles and thumbnails, kept with their tile cache entries: a
/// hit sends head fields encoded once instead of building a response.
///
/// Attached to the entry they were made from (`TileCache.attach`), so a hit finds them under
/// the cache's one lock and hashes nothing more; an entry stored again has a new stamp and
/// nothing attached, so an answer is never sent for bytes other than its own, and an entry
/// that is evicted or dropped takes its answers with it.
final class TileAnswers: Sendable {
    private let cache: TileCache
    /// `private` on a private library.
    let caching: CachePolicy

    init(cache: TileCache, caching: CachePolicy = .public) {
        self.cache = cache
        self.caching = caching
    }

    /// The answers kept with an entry, from what `TileCache.lookup` handed out in its place;
    /// nil when something else was attached.
    func kept(_ attachment: any TileCacheAttachment) -> CachedTileAnswers? {
        attachment as? CachedTileAnswers
    }

    /// The answers for `image` (a tile, or the thumbnail when `tile` is nil), made with their
    /// plain answer and attached to its entry unless they are attached already.
    func answers(for image: CachedImage, tile: TileCoordinate?) -> CachedTileAnswers {
        let made = CachedTileAnswers(plain: Self.plainAnswer(image, tile: tile, caching: caching), bytes: image.bytes, version: image.version)
        // Two loops meeting the same new entry both make answers; the last attached stays.
        cache.attach(made, to: image.stamp)
        return made
    }

    /// Answers kept now.
    var count: Int { cache.attachedCount }

    /// The answer to a plain GET of a cached image with the current `?v=`, sharing the one copy
    /// of the bytes the cache holds.
    static func plainAnswer(_ image: CachedImage, tile: TileCoordinate?, caching: CachePolicy = .public) -> EncodedResponse {
        let etag = TileKey(version: image.version, tile: tile).entityTag
        return EncodedResponse(headers: HTTPHeaders([("Content-Type", "image/jpeg"), ("ETag", etag),
                                                     ("Cache-Control", caching.immutable), CrossOrigin.allowOrigin]),
                               body: image.bytes)
    }
}
