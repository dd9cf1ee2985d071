import SQL

/// One photo in the trash: the file waits in `<data>/trash/<id>`.
public struct TrashItem: Sendable, Equatable, SQLRowDecodable {
    /// Random, 32 hex digits; also the file's name in the trash folder.
    public var id: String
    /// The photos trashed together (one delete, one Undo).
    public var batch: String
    public var photoID: Int
    /// Where it was in the photos folder.
    public var path: String
    public var size: Int
    /// Unix seconds.
    public var deletedAt: Int

    public init(id: String, batch: String, photoID: Int, path: String, size: Int, deletedAt: Int) {
        self.id = id
        self.batch = batch
        self.photoID = photoID
        self.path = path
        self.size = size
        self.deletedAt = deletedAt
    }

    public init(row: SQLRow) throws {
        id = try row.decode(0)
        batch = try row.decode(1)
        photoID = try row.decode(2)
        path = try row.decode(3)
        size = try row.decode(4)
        deletedAt = try row.decode(5)
    }

    static let columns = "id, batch, photo_id, path, size, deleted_at"
}
