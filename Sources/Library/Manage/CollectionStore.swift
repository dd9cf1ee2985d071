import SQL
import Synchronization

/// Favourites, the trash and albums in SQL: every replica on one database sees the same.
final class CollectionStore: PhotoCollections {
    let database: SQLDatabase
    /// Albums' photos as last read (`members(of:)`, `ownOrder(of:)`), with when.
    let memberCache = Mutex<[Int: (ids: Set<Int>?, order: [Int]?, read: ContinuousClock.Instant)]>([:])
    /// Told of the photos whose albums changed for them (`observeAlbumChanges`).
    let albumObservers = Mutex<[@Sendable ([Int]) -> Void]>([])
    /// Told of every change to the collections, this process's and other replicas' (`observeCollectionChanges`).
    let collectionObservers = Mutex<[@Sendable (CollectionChange) -> Void]>([])
    /// Hears the changes announced on the database, while `startHearing()` has it.
    let listener = Mutex<SQLListener?>(nil)

    init(database: SQLDatabase) throws {
        self.database = database
        try database.migrate(CollectionSchema.schema)
    }

    /// Every favourite photo id, ascending.
    func favourites() throws -> [Int] {
        try database.query("SELECT photo_id FROM favourites ORDER BY photo_id").map { try $0.decode(0, as: Int.self) }
    }

    /// Marks or unmarks photos as favourites.
    func setFavourite(_ ids: [Int], _ favourite: Bool, now: Int) throws {
        try database.transaction { tx in
            try Self.announce(CollectionChange(favourites: Set(ids)), tx)
            for id in ids {
                if favourite {
                    try tx.run("INSERT INTO favourites (photo_id, created_at) VALUES (\(id), \(now)) ON CONFLICT (photo_id) DO NOTHING")
                } else {
                    try tx.run("DELETE FROM favourites WHERE photo_id = \(id)")
                }
            }
        }
    }

    func insert(_ item: TrashItem) throws {
        try database.transaction { tx in
            try tx.run("""
                INSERT INTO trash (id, batch, photo_id, path, size, deleted_at)
                VALUES (\(item.id), \(item.batch), \(item.photoID), \(item.path), \(item.size), \(item.deletedAt))
                """)
            try Self.announce(CollectionChange(trash: true), tx)
        }
    }

    /// The trash, newest first.
    func trash() throws -> [TrashItem] {
        try database.query("SELECT \(raw: TrashItem.columns) FROM trash ORDER BY deleted_at DESC, id", as: TrashItem.self)
    }

    func trashItems(batch: String) throws -> [TrashItem] {
        try database.query("SELECT \(raw: TrashItem.columns) FROM trash WHERE batch = \(batch) ORDER BY id", as: TrashItem.self)
    }

    func trashItem(_ id: String) throws -> TrashItem? {
        try database.query("SELECT \(raw: TrashItem.columns) FROM trash WHERE id = \(id)", as: TrashItem.self).first
    }

    /// Items deleted at or before `time` (unix seconds).
    func trash(deletedBefore time: Int) throws -> [TrashItem] {
        try database.query("SELECT \(raw: TrashItem.columns) FROM trash WHERE deleted_at <= \(time) ORDER BY deleted_at", as: TrashItem.self)
    }

    /// Forgets an item; true when it was there (so two replicas never both act on one).
    @discardableResult
    func remove(_ id: String) throws -> Bool {
        try database.transaction { tx in
            let removed = try tx.run("DELETE FROM trash WHERE id = \(id)") > 0
            if removed { try Self.announce(CollectionChange(trash: true), tx) }
            return removed
        }
    }
}
