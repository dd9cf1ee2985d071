/// An album: the photos directly in one folder of the photos folder (photos in the root are in
/// the library only).
public struct Album: Sendable, Hashable {
    /// Stable like a photo id: kept when the folder is renamed with its photos, never reused.
    public var id: Int
    /// The folder, relative to the photos folder (`trips/2024`).
    public var path: String
    /// The folder's own name (`2024`).
    public var title: String
    public var count: Int
    /// The oldest and the newest photo; the newest is the cover.
    public var first: Photo
    public var last: Photo
    /// The newest photo that can be shown (a photo whose file could not be read has no
    /// thumbnail); the newest of all when none can.
    public var cover: Photo
}
