/// One album (a folder of the photos folder) as stored: its id stays when the folder is renamed.
struct AlbumRow: Hashable, Sendable {
    var id: Int
    /// The folder, relative to the photos folder.
    var path: String

    init(id: Int = 0, path: String) {
        self.id = id
        self.path = path
    }
}
