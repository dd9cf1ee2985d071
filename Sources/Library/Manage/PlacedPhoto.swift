/// A photo after a move, a copy or a restore: where it is now, and its id once listed.
public struct PlacedPhoto: Sendable, Equatable {
    /// The photo it came from (for a copy, the original's id).
    public var from: Int
    public var id: Int?
    public var path: String

    public init(from: Int, id: Int?, path: String) {
        self.from = from
        self.id = id
        self.path = path
    }
}
