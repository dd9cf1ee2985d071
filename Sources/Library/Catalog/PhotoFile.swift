/// The file a photo id stands for, as the catalog last saw it, listed or not: what the start's
/// check of comments and `reattach-comments` compare with what comments recorded. A value cut
/// from the catalog's row (internal), with only what those need.
public struct PhotoFile: Hashable, Sendable {
    public var id: Int
    /// Path relative to the photos folder, where the file was last seen.
    public var path: String
    /// False once the file has gone (the id is kept for it).
    public var present: Bool
    /// Content hash of the bytes (16 hex digits); empty until first hashed.
    public var contentHash: String
    /// Whether `contentHash` describes the file as it is now (false: not examined yet, or changed since).
    public var hashed: Bool

    public init(id: Int, path: String, present: Bool = true, contentHash: String, hashed: Bool = true) {
        self.id = id
        self.path = path
        self.present = present
        self.contentHash = contentHash
        self.hashed = hashed
    }

    init(_ entry: CatalogEntry) {
        self.init(id: entry.id, path: entry.path, present: entry.present, contentHash: entry.contentHash, hashed: entry.hashed)
    }
}
