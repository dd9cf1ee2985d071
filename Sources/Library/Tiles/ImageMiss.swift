/// How a missing image is made.
public enum ImageMiss: Sendable, Equatable {
    /// Read from the built pyramid, where it is the file at `path`.
    case built(path: String)
    /// Rendered from the source now: there is no pyramid yet (its build is queued).
    case rendered
}
