/// Where catalog rows persist. The real one is SQLite in the data folder; tests use memory.
protocol CatalogStore: Sendable {
    /// Every row, present or not, in id order.
    func entries() throws -> [CatalogEntry]
    /// Stores new rows in one transaction and returns their ids in order; a path already present
    /// (added by another process a moment ago) keeps its id.
    func insert(_ entries: [CatalogEntry]) throws -> [Int]
    /// Overwrites the rows with these ids, in one transaction.
    func update(_ entries: [CatalogEntry]) throws
    /// Every album row, in id order.
    func albums() throws -> [AlbumRow]
    /// Stores album rows in one transaction: a row with id 0 is new and gets the next id, any
    /// other overwrites its row. Returns the ids in order.
    func saveAlbums(_ rows: [AlbumRow]) throws -> [Int]
}

extension CatalogStore {
    /// Stores one new row and returns its id.
    func insert(_ entry: CatalogEntry) throws -> Int { try insert([entry])[0] }
    /// Overwrites one row.
    func update(_ entry: CatalogEntry) throws { try update([entry]) }
}
