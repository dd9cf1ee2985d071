import HTTP
import Imaging
import Library
import Synchronization

/// The answers encoded from cached tiles and thumbnails, kept per tile cache entry: a hit sends
/// head fields encoded once instead of building a response.
///
/// Kept in a table indexed by the entry's slot and checked against its stamp
/// (`CachedImage.slot`, `.stamp`), so a hit hashes nothing more; an entry stored again has a new
/// stamp, so an answer is never sent for bytes other than its own. Answers are dropped as the
/// cache removes their entries (`TileCache.onRemoval`): none keeps evicted bytes alive.
final class TileAnswers: Sendable {
    private struct Kept {
        let stamp: UInt64
        let answers: CachedTileAnswers
    }

    private let cache: TileCache
    private let kept = Mutex<[Kept?]>([])

    init(cache: TileCache) {
        self.cache = cache
        cache.onRemoval { [weak self] stamps in self?.drop(stamps) }
    }

    /// The answers kept for `image` (a tile, or the thumbnail when `tile` is nil), made with
    /// their plain answer on the first call.
    func answers(for image: CachedImage, tile: TileCoordinate?) -> CachedTileAnswers {
        let slot = image.slot, stamp = image.stamp
        if let answers = kept.withLock({ kept -> CachedTileAnswers? in
            guard slot < kept.count, let entry = kept[slot], entry.stamp == stamp else { return nil }
            return entry.answers
        }) {
            return answers
        }
        let made = CachedTileAnswers(plain: Self.plainAnswer(image, tile: tile), version: image.version)
        kept.withLock { kept in
            if kept.count <= slot { kept.append(contentsOf: repeatElement(nil, count: slot + 1 - kept.count)) }
            kept[slot] = Kept(stamp: stamp, answers: made)
        }
        // Removed while this was made: its removal may have been told before the answer was kept.
        if !cache.holds(stamp) { drop([stamp]) }
        return made
    }

    /// Forgets the answers of removed entries.
    func drop(_ stamps: [UInt64]) {
        kept.withLock { kept in
            for stamp in stamps {
                let slot = Int(stamp >> 32)
                if slot < kept.count, kept[slot]?.stamp == stamp { kept[slot] = nil }
            }
        }
    }

    /// Answers kept now.
    var count: Int { kept.withLock { $0.reduce(0) { $0 + ($1 == nil ? 0 : 1) } } }

    /// The answer to a plain GET of a cached image with the current `?v=`, sharing the one copy
    /// of the bytes the cache holds.
    static func plainAnswer(_ image: CachedImage, tile: TileCoordinate?) -> EncodedResponse {
        let etag = TileKey(version: image.version, tile: tile).entityTag
        return EncodedResponse(headers: HTTPHeaders([("Content-Type", "image/jpeg"), ("ETag", etag),
                                                     ("Cache-Control", PhotoCaching.immutable), CrossOrigin.allowOrigin]),
                               body: image.bytes)
    }
}
