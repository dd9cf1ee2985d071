/// Where a tile or thumbnail lookup stands (`PhotoLibrary.lookupImage`).
public enum ImageLookup: Sendable {
    /// In memory, the image of the photo's current version, named by its stamp: what a caller
    /// derived from its bytes and keeps by that stamp is still good; else `image(_:)` has the
    /// bytes. Nothing is retained: a hot hit copies one number.
    case held(ImageStamp)
    /// Not in memory: `image(of:tile:)` makes it, off the event loop; `ImageMiss` says how.
    /// Boxed, as is `notFound`: a photo's record is large, and a hit should not carry its room.
    indirect case miss(Photo, ImageMiss)
    /// There is no such image.
    indirect case notFound(ImageNotFound)
}
