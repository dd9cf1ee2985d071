/// Where a complete upload's photo is.
struct UploadOutcome: Sendable, Equatable {
    /// Relative to the photos folder.
    var path: String
    /// The photo, once the catalog has listed it.
    var photoID: Int?
    /// The bytes were in the library already: `path` is that photo's, and nothing was stored.
    var duplicate: Bool
}
