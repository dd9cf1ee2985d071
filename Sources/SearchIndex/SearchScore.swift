/// A photo found by the index with `SearchRanking`'s score for the query: all a search needs to
/// order its answer, without the photo's words.
public struct SearchScore: Sendable, Hashable {
    public var photoID: Int
    public var score: Int

    public init(photoID: Int, score: Int) {
        self.photoID = photoID
        self.score = score
    }
}
