/// The photo identities of a comment store, and the one repair they allow.
public protocol PhotoIdentityMap: AnyObject, Sendable {
    /// Every recorded identity, by photo id order.
    func photoIdentities() throws -> [PhotoIdentity]
    /// Records (or updates) identities.
    func record(_ identities: [PhotoIdentity]) throws
    /// Photo ids that have comments.
    func photosWithComments() throws -> [Int]
    /// Moves every comment (and deletion record) of photo `from` to `to` for each entry of
    /// `moves`, all at once (so swaps work), and replaces the identity map with `identities`.
    /// Comments of photos listed in `hide` move under the negative id, which no route shows.
    func reattach(moves: [Int: Int], hide: [Int], identities: [PhotoIdentity]) throws
}
