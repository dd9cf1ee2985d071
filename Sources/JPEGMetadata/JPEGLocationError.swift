/// Why a JPEG's location could not be taken out: something in its metadata could not be read
/// safely. The file is then not sent at all rather than sent with its location.
public struct JPEGLocationError: Error, Equatable, Sendable {
    /// One sentence for a person, saying what was wrong (`"the Exif block's GPS directory runs past its end"`).
    public let reason: String

    init(_ reason: String) { self.reason = reason }
}
