/// The two stages a photo goes through on its way to ready.
enum IngestStage: Int, Hashable, Sendable, CaseIterable {
    /// Examined (hashed, header read) and its thumbnail made, with the low levels the same
    /// shrunk decode gives: every photo of a library gets this before any pyramid is built.
    case first
    /// The whole pyramid.
    case pyramid
}
