import Imaging

/// What an added file's header says it is.
public struct AddedPhotoHeader: Sendable, Equatable {
    /// `image/jpeg`, `image/png` … (one of `PhotoLibrary.addableMediaTypes`).
    public var mediaType: String
    /// Upright size in pixels.
    public var width: Int
    public var height: Int
    /// When it was taken, when the file says (nil: it does not, and the file's own time says nothing).
    public var taken: CaptureDate?
}
