/// What `CollectionStore.updateAlbum` changes; nil members are left as they are.
public struct AlbumChange: Sendable, Equatable {
    public var title: String?
    /// `.some(nil)` goes back to the newest photo.
    public var cover: Int??
    /// The album's new place among the albums (clamped to the list).
    public var position: Int?

    public init(title: String? = nil, cover: Int?? = nil, position: Int? = nil) {
        self.title = title
        self.cover = cover
        self.position = position
    }
}
