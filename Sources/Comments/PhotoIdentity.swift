/// Which file a photo id meant when its comments were written: its path in the library and the
/// hash of its bytes. Kept beside the comments, so that a catalog that has numbered its photos
/// anew (deleted, or restored from another machine) is noticed instead of silently showing
/// comments under other photos.
public struct PhotoIdentity: Hashable, Sendable {
    public var photoID: Int
    /// Path relative to the photos folder.
    public var path: String
    /// The catalog's hash of the file's bytes.
    public var contentHash: String

    public init(photoID: Int, path: String, contentHash: String) {
        self.photoID = photoID
        self.path = path
        self.contentHash = contentHash
    }

    /// Whether `other` is the same photo: a file moved keeps its hash, a file edited in place
    /// keeps its path. Only both changing at once reads as another photo.
    public func matches(path: String, contentHash: String) -> Bool {
        self.path == path || self.contentHash == contentHash
    }
}

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
