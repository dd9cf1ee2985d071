/// One album (a folder of the photos folder) as stored: its id stays when the folder is renamed.
public struct AlbumRow: Hashable, Sendable {
    public var id: Int
    /// The folder, relative to the photos folder.
    public var path: String

    public init(id: Int = 0, path: String) {
        self.id = id
        self.path = path
    }
}
