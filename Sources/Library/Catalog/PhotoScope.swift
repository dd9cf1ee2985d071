/// Which photos a list holds.
public enum PhotoScope: Sendable, Hashable {
    /// Every listed photo.
    case library
    /// The photos directly in one folder (an album), by the album's id.
    case album(Int)
    /// The listed photos among these ids (an album's, as a collection), in the list's order;
    /// empty, never nil, when none of them is listed.
    case members(Set<Int>)
    /// The listed photos among these ids in this order (an album in its own order), whatever
    /// the order asked for; empty when none of them is listed.
    case sequence([Int])
}
