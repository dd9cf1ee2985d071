import HTTP
import Imaging
import Library
import Synchronization

/// App's cache of the answers it encoded from tiles and thumbnails the library holds in memory:
/// a hit sends head fields encoded once instead of building a response.
///
/// Kept by the slot of the image they were made from (`ImageStamp.slot`, a small number no
/// other image held at once has), so a hit finds them by an index under one short lock and
/// hashes nothing more; the stamp is checked on every read, so an answer is never sent for
/// bytes other than its own. The library says when an image goes (evicted, dropped after a
/// rescan, stored again; `ImageServing.observeDroppedImages`), and its answers go with it, so
/// they hold no bytes the library does not. Generic, as the routes that hold it, so the hot
/// path calls the library without a dynamic dispatch.
final class TileAnswers<Images: ImageServing>: Sendable {
    private let library: Images
    /// `private` on a private library.
    let caching: CachePolicy
    /// By the slot of their image; nil where nothing is kept.
    private let kept = Mutex<[CachedTileAnswers?]>([])

    init(library: Images, caching: CachePolicy = .public) {
        self.library = library
        self.caching = caching
        library.observeDroppedImages { [weak self] stamp in self?.drop(stamp) }
    }

    /// The answers kept for the image stamped `stamp`, or nil.
    @inline(__always)
    func kept(_ stamp: ImageStamp) -> CachedTileAnswers? {
        let slot = stamp.slot
        return kept.withLock { table in
            guard slot < table.count, let answers = table[slot], answers.stamp == stamp else { return nil }
            return answers
        }
    }

    /// The answers for `image` (a tile, or the thumbnail when `tile` is nil), made with their
    /// plain answer and kept until the image goes.
    func answers(for image: CachedImage, tile: TileCoordinate?) -> CachedTileAnswers {
        let made = CachedTileAnswers(plain: Self.plainAnswer(image, tile: tile, caching: caching), bytes: image.bytes,
                                     version: image.version, stamp: image.stamp)
        let slot = image.stamp.slot
        // Two loops meeting the same new image both make answers; the last kept stays.
        let replaced = kept.withLock { table -> CachedTileAnswers? in
            if slot >= table.count { table.append(contentsOf: repeatElement(nil, count: slot + 1 - table.count)) }
            defer { table[slot] = made }
            return table[slot]
        }
        _ = replaced  // released here, outside the lock
        // Gone since it was looked up: its drop was announced before these answers were kept.
        if !library.holdsImage(image.stamp) { drop(image.stamp) }
        return made
    }

    /// Forgets the answers of the image stamped `stamp`, if they are the ones kept in its slot.
    private func drop(_ stamp: ImageStamp) {
        let slot = stamp.slot
        let gone = kept.withLock { table -> CachedTileAnswers? in
            guard slot < table.count, let answers = table[slot], answers.stamp == stamp else { return nil }
            table[slot] = nil
            return answers
        }
        _ = gone  // released here, outside the lock
    }

    /// Answers kept now.
    var count: Int { kept.withLock { $0.reduce(0) { $0 + ($1 == nil ? 0 : 1) } } }

    /// The answer to a plain GET of a cached image with the current `?v=`, sharing the one copy
    /// of the bytes the cache holds.
    static func plainAnswer(_ image: CachedImage, tile: TileCoordinate?, caching: CachePolicy = .public) -> EncodedResponse {
        let etag = TileKey(version: image.version, tile: tile).entityTag
        return EncodedResponse(headers: HTTPHeaders([("Content-Type", "image/jpeg"), ("ETag", etag),
                                                     ("Cache-Control", caching.immutable), CrossOrigin.allowOrigin]),
                               body: image.bytes)
    }
}
