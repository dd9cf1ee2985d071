import Foundation
import Synchronization
private import CSQLite

/// A SQLite error, with the statement's purpose and SQLite's own message.
public struct CatalogStoreError: Error, CustomStringConvertible {
    public var description: String
}

/// The catalog in `<data>/catalog.sqlite` (WAL, so a second server process on the same folder
/// reads while one writes). The only file that speaks to SQLite for the library.
///
/// Schema versions (`PRAGMA user_version`): 0 had `path UNIQUE` and no hash kind, examination
/// state or missing time; 1 allows a path on several rows as long as one at most is present (a
/// photo moved onto the path of a removed one), and adds `hash_kind`, `hashed`, `missing_since`;
/// 2 adds what a photo's header says (`taken`, `taken_source`, `details`) and the `albums` table.
public final class SQLiteCatalogStore: CatalogStore, @unchecked Sendable {
    // OpaquePointer is not Sendable; every use is under `lock`.
    private let db: OpaquePointer
    private let lock = Mutex<Void>(())

    static let schemaVersion = 2
    private static let columns = """
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        path TEXT NOT NULL,
        present INTEGER NOT NULL DEFAULT 1,
        size INTEGER NOT NULL DEFAULT 0,
        modified INTEGER NOT NULL DEFAULT 0,
        inode INTEGER NOT NULL DEFAULT 0,
        content_hash TEXT NOT NULL DEFAULT '',
        hash_kind INTEGER NOT NULL DEFAULT 1,
        hashed INTEGER NOT NULL DEFAULT 1,
        width INTEGER NOT NULL DEFAULT 0,
        height INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        error_version TEXT,
        missing_since INTEGER
        """
    private static let fields = "path, present, size, modified, inode, content_hash, hash_kind, hashed, width, height, error, error_version, missing_since, taken, taken_source, details"

    /// Opens (creating or migrating when needed) the catalog database at `path`.
    public init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let handle { sqlite3_close(handle) }
            throw CatalogStoreError(description: "Cannot open the catalog \(path): \(message)")
        }
        db = handle
        sqlite3_busy_timeout(db, 5000)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try migrate()
    }

    deinit { sqlite3_close(db) }

    /// Brings the schema to `schemaVersion` in one transaction; a second process doing the same
    /// waits for the first and then finds nothing left to do.
    private func migrate() throws {
        try execute("BEGIN IMMEDIATE")
        do {
            let version = try integer("PRAGMA user_version")
            let exists = try integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'photos'") > 0
            if !exists {
                try execute("CREATE TABLE photos (\(Self.columns))")
            } else if version < 1 {
                // Hashes stored before xxHash are the legacy kind; the rest of the row carries over.
                try execute("CREATE TABLE photos_v1 (\(Self.columns))")
                try execute("""
                    INSERT INTO photos_v1 (id, path, present, size, modified, inode, content_hash, hash_kind, hashed, width, height,
                                           error, error_version, missing_since)
                    SELECT id, path, present, size, modified, inode, content_hash, 0, 1, width, height, error, error_version, NULL
                    FROM photos
                    """)
                try execute("DROP TABLE photos")
                try execute("ALTER TABLE photos_v1 RENAME TO photos")
            }
            try execute("CREATE UNIQUE INDEX IF NOT EXISTS photos_present_path ON photos(path) WHERE present = 1")
            if version < 2 { try migrateToVersion2() }
            try execute("PRAGMA user_version = \(Self.schemaVersion)")
            try execute("COMMIT")
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Version 2, on its own: what a photo's header says, and albums. Plain SQL that other
    /// databases take as it is. Rows stored before it have NULLs, read as "header not read yet"
    /// (the catalog reads the headers then, without rebuilding any pyramid).
    private func migrateToVersion2() throws {
        let columns = try names("PRAGMA table_info(photos)")
        for column in ["taken", "taken_source", "details"] where !columns.contains(column) {
            try execute("ALTER TABLE photos ADD COLUMN \(column) TEXT")
        }
        try execute("CREATE TABLE IF NOT EXISTS albums (id INTEGER PRIMARY KEY, path TEXT NOT NULL)")
    }

    public func albums() throws -> [AlbumRow] {
        try lock.withLock { _ in
            let statement = try prepare("SELECT id, path FROM albums ORDER BY id")
            defer { sqlite3_finalize(statement) }
            var rows: [AlbumRow] = []
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else { throw failure("reading the albums") }
                rows.append(AlbumRow(id: Int(sqlite3_column_int64(statement, 0)), path: text(statement, 1) ?? ""))
            }
            return rows
        }
    }

    public func saveAlbums(_ rows: [AlbumRow]) throws -> [Int] {
        guard !rows.isEmpty else { return [] }
        return try transaction {
            let insert = try prepare("INSERT INTO albums (id, path) SELECT COALESCE(MAX(id), 0) + 1, ?1 FROM albums")
            defer { sqlite3_finalize(insert) }
            let update = try prepare("UPDATE albums SET path = ?1 WHERE id = ?2")
            defer { sqlite3_finalize(update) }
            var ids: [Int] = []
            for row in rows {
                let statement = row.id == 0 ? insert : update
                sqlite3_reset(statement)
                sqlite3_bind_text(statement, 1, row.path, -1, transient)
                if row.id != 0 { sqlite3_bind_int64(statement, 2, Int64(row.id)) }
                guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("saving the album \(row.path)") }
                ids.append(row.id == 0 ? Int(sqlite3_last_insert_rowid(db)) : row.id)
            }
            return ids
        }
    }

    public func entries() throws -> [CatalogEntry] {
        try lock.withLock { _ in
            let statement = try prepare("SELECT id, \(Self.fields) FROM photos ORDER BY id")
            defer { sqlite3_finalize(statement) }
            var rows: [CatalogEntry] = []
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else { throw failure("reading the catalog") }
                rows.append(CatalogEntry(
                    id: Int(sqlite3_column_int64(statement, 0)),
                    path: text(statement, 1) ?? "",
                    present: sqlite3_column_int64(statement, 2) != 0,
                    fingerprint: FileFingerprint(size: Int(sqlite3_column_int64(statement, 3)),
                                                 modified: Int(sqlite3_column_int64(statement, 4)),
                                                 inode: Int(sqlite3_column_int64(statement, 5))),
                    contentHash: text(statement, 6) ?? "",
                    hashKind: ContentHash.Kind(rawValue: Int(sqlite3_column_int64(statement, 7))) ?? .xxh3,
                    hashed: sqlite3_column_int64(statement, 8) != 0,
                    width: Int(sqlite3_column_int64(statement, 9)),
                    height: Int(sqlite3_column_int64(statement, 10)),
                    error: text(statement, 11),
                    errorVersion: text(statement, 12),
                    missingSince: sqlite3_column_type(statement, 13) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, 13)),
                    taken: text(statement, 14), takenSource: text(statement, 15), details: text(statement, 16)))
            }
            return rows
        }
    }

    public func insert(_ entries: [CatalogEntry]) throws -> [Int] {
        guard !entries.isEmpty else { return [] }
        return try transaction {
            // INSERT OR IGNORE: a second process may have added the same present path a moment
            // ago; then its id is the id.
            let statement = try prepare("INSERT OR IGNORE INTO photos (\(Self.fields)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)")
            defer { sqlite3_finalize(statement) }
            let lookup = try prepare("SELECT id FROM photos WHERE path = ?1 AND present = 1")
            defer { sqlite3_finalize(lookup) }
            var ids: [Int] = []
            ids.reserveCapacity(entries.count)
            for entry in entries {
                sqlite3_reset(statement)
                bind(entry, to: statement)
                guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("adding \(entry.path)") }
                if sqlite3_changes(db) > 0 {
                    ids.append(Int(sqlite3_last_insert_rowid(db)))
                    continue
                }
                sqlite3_reset(lookup)
                sqlite3_bind_text(lookup, 1, entry.path, -1, transient)
                guard sqlite3_step(lookup) == SQLITE_ROW else { throw failure("finding \(entry.path)") }
                ids.append(Int(sqlite3_column_int64(lookup, 0)))
            }
            return ids
        }
    }

    public func update(_ entries: [CatalogEntry]) throws {
        guard !entries.isEmpty else { return }
        try transaction {
            let statement = try prepare("""
                UPDATE photos SET path = ?1, present = ?2, size = ?3, modified = ?4, inode = ?5, content_hash = ?6,
                    hash_kind = ?7, hashed = ?8, width = ?9, height = ?10, error = ?11, error_version = ?12,
                    missing_since = ?13, taken = ?14, taken_source = ?15, details = ?16 WHERE id = ?17
                """)
            defer { sqlite3_finalize(statement) }
            for entry in entries {
                sqlite3_reset(statement)
                bind(entry, to: statement)
                sqlite3_bind_int64(statement, 17, Int64(entry.id))
                guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("updating \(entry.path)") }
            }
        }
    }

    // MARK: - SQLite plumbing

    private var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    /// Runs `body` in one write transaction under the lock, rolled back when it throws.
    private func transaction<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock { _ in
            try execute("BEGIN IMMEDIATE")
            do {
                let result = try body()
                try execute("COMMIT")
                return result
            } catch {
                _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
                throw error
            }
        }
    }

    private func bind(_ entry: CatalogEntry, to statement: OpaquePointer) {
        sqlite3_bind_text(statement, 1, entry.path, -1, transient)
        sqlite3_bind_int64(statement, 2, entry.present ? 1 : 0)
        sqlite3_bind_int64(statement, 3, Int64(entry.fingerprint.size))
        sqlite3_bind_int64(statement, 4, Int64(entry.fingerprint.modified))
        sqlite3_bind_int64(statement, 5, Int64(entry.fingerprint.inode))
        sqlite3_bind_text(statement, 6, entry.contentHash, -1, transient)
        sqlite3_bind_int64(statement, 7, Int64(entry.hashKind.rawValue))
        sqlite3_bind_int64(statement, 8, entry.hashed ? 1 : 0)
        sqlite3_bind_int64(statement, 9, Int64(entry.width))
        sqlite3_bind_int64(statement, 10, Int64(entry.height))
        if let error = entry.error { sqlite3_bind_text(statement, 11, error, -1, transient) } else { sqlite3_bind_null(statement, 11) }
        if let version = entry.errorVersion { sqlite3_bind_text(statement, 12, version, -1, transient) } else { sqlite3_bind_null(statement, 12) }
        if let since = entry.missingSince { sqlite3_bind_int64(statement, 13, Int64(since)) } else { sqlite3_bind_null(statement, 13) }
        for (column, value) in [(Int32(14), entry.taken), (15, entry.takenSource), (16, entry.details)] {
            if let value { sqlite3_bind_text(statement, column, value, -1, transient) } else { sqlite3_bind_null(statement, column) }
        }
    }

    private func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let c = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: c)
    }

    /// The second column of every row (`PRAGMA table_info`'s column names).
    private func names(_ sql: String) throws -> Set<String> {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var names: Set<String> = []
        while sqlite3_step(statement) == SQLITE_ROW { if let name = text(statement, 1) { names.insert(name) } }
        return names
    }

    private func integer(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("reading the schema") }
        return Int(sqlite3_column_int64(statement, 0))
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure("preparing a statement")
        }
        return statement
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure("running \(sql.prefix(40))") }
    }

    private func failure(_ doing: String) -> CatalogStoreError {
        CatalogStoreError(description: "SQLite failed \(doing): \(String(cString: sqlite3_errmsg(db)))")
    }
}
