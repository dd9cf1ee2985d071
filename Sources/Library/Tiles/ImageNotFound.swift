/// Why there is no image.
public enum ImageNotFound: Sendable, Equatable {
    /// No photo has that id.
    case noSuchPhoto
    /// The photo cannot be shown (`Photo.error` says why).
    case failed(Photo)
    /// The tile is outside the photo's pyramid, or the photo's size is not known.
    case outsidePyramid(Photo)
}
