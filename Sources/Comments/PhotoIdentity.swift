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
