import FolderScan
import SQL

/// The catalog in a SQL database: `<data>/catalog.sqlite` for one process (WAL, so a second
/// process on the same folder reads while one writes), or the PostgreSQL database every replica
/// shares. The schema is brought up to date when the store opens (`CatalogSchema`), under the
/// database's migration lock, so replicas starting at once migrate once.
final class SQLCatalogStore: CatalogStore, Sendable {
    /// The database the catalog lives in.
    let database: SQLDatabase
    private let ownsDatabase: Bool

    private static let fields = "path, present, size, modified, inode, content_hash, hash_kind, hashed, width, height, error, error_version, missing_since, taken, taken_source, details"

    /// Opens the catalog in `database`, migrating it. The database stays open when the store
    /// goes away unless `ownsDatabase`.
    init(database: SQLDatabase, ownsDatabase: Bool = false) throws {
        self.database = database
        self.ownsDatabase = ownsDatabase
        try database.migrate(CatalogSchema.schema)
    }

    /// Opens (creating or migrating when needed) the catalog in the SQLite file at `path`.
    convenience init(path: String) throws {
        // A commit survives a crash of the process, not of the machine: every row can be
        // learnt again from the folder, and the scan writes thousands of them.
        let database = try SQLDatabase(.sqlite(path: path), options: SQLDatabaseOptions(sqlite: SQLiteOptions(synchronous: .normal)))
        do {
            try self.init(database: database, ownsDatabase: true)
        } catch {
            database.close()
            throw error
        }
    }

    deinit { if ownsDatabase { database.close() } }

    func entries() throws -> [CatalogEntry] {
        try database.query("SELECT id, \(raw: Self.fields) FROM photos ORDER BY id").map { row in
            CatalogEntry(
                id: try row.decode(0),
                path: try row.decode(1),
                present: try row.decode(2, as: Int.self) != 0,
                fingerprint: FileFingerprint(size: try row.decode(3), modified: try row.decode(4), inode: try row.decode(5)),
                contentHash: try row.decode(6),
                hashKind: ContentHash.Kind(rawValue: try row.decode(7)) ?? .xxh3,
                hashed: try row.decode(8, as: Int.self) != 0,
                width: try row.decode(9),
                height: try row.decode(10),
                error: try row.decode(11),
                errorVersion: try row.decode(12),
                missingSince: try row.decode(13),
                taken: try row.decode(14),
                takenSource: try row.decode(15),
                details: try row.decode(16))
        }
    }

    func insert(_ entries: [CatalogEntry]) throws -> [Int] {
        guard !entries.isEmpty else { return [] }
        return try database.transaction { tx in
            var ids: [Int] = []
            ids.reserveCapacity(entries.count)
            for entry in entries {
                // Another process (a replica, a second server on the folder) may have added the
                // same present path a moment ago; then its id is the id.
                if let row = try tx.first("""
                    INSERT INTO photos (\(raw: Self.fields))
                    VALUES (\(entry.path), \(entry.present ? 1 : 0), \(entry.fingerprint.size), \(entry.fingerprint.modified),
                            \(entry.fingerprint.inode), \(entry.contentHash), \(entry.hashKind.rawValue), \(entry.hashed ? 1 : 0),
                            \(entry.width), \(entry.height), \(entry.error), \(entry.errorVersion), \(entry.missingSince),
                            \(entry.taken), \(entry.takenSource), \(entry.details))
                    ON CONFLICT (path) WHERE present = 1 DO NOTHING
                    RETURNING id
                    """) {
                    ids.append(try row.decode(0))
                    continue
                }
                guard let id = try tx.scalar("SELECT id FROM photos WHERE path = \(entry.path) AND present = 1", as: Int.self) else {
                    throw SQLError(.other, message: "adding \(entry.path) to the catalog conflicted with a row that is gone now")
                }
                ids.append(id)
            }
            return ids
        }
    }

    func update(_ entries: [CatalogEntry]) throws {
        guard !entries.isEmpty else { return }
        // What an update records (a photo examined, its size, a move) is read again from the
        // folder if a crash loses it, while on PostgreSQL each of a first start's 100,000
        // examinations, one a transaction, waited 3 to 4 ms for the log to reach the disk.
        try database.transaction(.rebuildable) { tx in
            for entry in entries {
                try tx.run("""
                    UPDATE photos SET path = \(entry.path), present = \(entry.present ? 1 : 0), size = \(entry.fingerprint.size),
                        modified = \(entry.fingerprint.modified), inode = \(entry.fingerprint.inode), content_hash = \(entry.contentHash),
                        hash_kind = \(entry.hashKind.rawValue), hashed = \(entry.hashed ? 1 : 0), width = \(entry.width),
                        height = \(entry.height), error = \(entry.error), error_version = \(entry.errorVersion),
                        missing_since = \(entry.missingSince), taken = \(entry.taken), taken_source = \(entry.takenSource),
                        details = \(entry.details)
                    WHERE id = \(entry.id)
                    """)
            }
        }
    }

    func albums() throws -> [AlbumRow] {
        try database.query("SELECT id, path FROM albums ORDER BY id").map { row in
            AlbumRow(id: try row.decode(0), path: try row.decode(1))
        }
    }

    func saveAlbums(_ rows: [AlbumRow]) throws -> [Int] {
        guard !rows.isEmpty else { return [] }
        return try database.transaction { tx in
            try rows.map { row in
                if row.id != 0 {
                    try tx.run("UPDATE albums SET path = \(row.path) WHERE id = \(row.id)")
                    return row.id
                }
                guard let id = try tx.scalar("INSERT INTO albums (path) VALUES (\(row.path)) RETURNING id", as: Int.self) else {
                    throw SQLError(.other, message: "adding the album \(row.path) to the catalog returned no id")
                }
                return id
            }
        }
    }
}
