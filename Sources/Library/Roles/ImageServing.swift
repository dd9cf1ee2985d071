import Imaging

/// What the image routes ask: tiles, thumbnails and renditions from memory or made on demand,
/// a photo's image facts, originals, and the image cache's drops (for answers kept encoded).
///
/// The tile route is hot: the routes that serve images are generic over their role (specialised
/// on `PhotoLibrary`), so a tile from memory costs no dynamic dispatch. `PhotoLibrary` is the one
/// conformer.
public protocol ImageServing: AnyObject, Sendable {
    /// The version, size and status of one photo, or nil: the start of every image request.
    func imageInfo(_ id: Int) -> PhotoImageInfo?
    /// A tile (or, with `tile` nil, the thumbnail) of the current version of photo `id`: a hit
    /// from memory, or what a miss needs. Never blocks on I/O.
    func lookupImage(photoID id: Int, tile: TileCoordinate?) -> ImageLookup
    /// The image held under `stamp`, or nil when it has gone.
    func image(_ stamp: ImageStamp) -> CachedImage?
    /// Whether the image stamped `stamp` is still held.
    func holdsImage(_ stamp: ImageStamp) -> Bool
    /// Calls `observer` with the stamp of every image the memory cache lets go.
    func observeDroppedImages(_ observer: @escaping @Sendable (ImageStamp) -> Void)
    /// Whether images are kept in memory at all (a cache of zero bytes keeps none).
    var keepsImages: Bool { get }
    /// The stamp of an image held in memory under `key`, or nil; a hit is counted.
    func heldImage(_ key: TileKey) -> ImageStamp?
    /// A tile, thumbnail or rendition from memory, or nil; a hit is counted.
    func cachedImage(_ key: TileKey) -> CachedImage?
    /// A tile (or the thumbnail) of the photo's current version, from memory, disk or a render.
    /// Blocks: call it off the event loop.
    func image(of photo: Photo, tile: TileCoordinate?) throws -> [UInt8]
    /// A region of the photo's current version, scaled, turned and encoded. Blocks.
    func rendition(of photo: Photo, _ rendition: RegionRendition, stop: RenderStop?) throws -> [UInt8]
    /// Opens a photo's original to be sent, only as it was read as an image.
    func openOriginal(_ id: Int) throws(OriginalRefusal) -> OriginalFile
    /// An image could not be read from its file: the folder is looked at again soon.
    func requestRescan()
}
