import Foundation
import Synchronization
private import CSQLite

/// A SQLite error, with the statement's purpose and SQLite's own message.
public struct CatalogStoreError: Error, CustomStringConvertible {
    public var description: String
}

/// The catalog in `<data>/catalog.sqlite` (WAL, so a second server process on the same folder
/// reads while one writes). The only file that speaks to SQLite for the library.
public final class SQLiteCatalogStore: CatalogStore, @unchecked Sendable {
    // OpaquePointer is not Sendable; every use is under `lock`.
    private let db: OpaquePointer
    private let lock = Mutex<Void>(())

    /// Opens (creating when missing) the catalog database at `path`.
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
        try execute("""
            CREATE TABLE IF NOT EXISTS photos (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                path TEXT NOT NULL UNIQUE,
                present INTEGER NOT NULL DEFAULT 1,
                size INTEGER NOT NULL DEFAULT 0,
                modified INTEGER NOT NULL DEFAULT 0,
                inode INTEGER NOT NULL DEFAULT 0,
                content_hash TEXT NOT NULL DEFAULT '',
                width INTEGER NOT NULL DEFAULT 0,
                height INTEGER NOT NULL DEFAULT 0,
                error TEXT,
                error_version TEXT)
            """)
    }

    deinit { sqlite3_close(db) }

    public func entries() throws -> [CatalogEntry] {
        try lock.withLock { _ in
            let statement = try prepare("""
                SELECT id, path, present, size, modified, inode, content_hash, width, height, error, error_version
                FROM photos ORDER BY id
                """)
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
                    width: Int(sqlite3_column_int64(statement, 7)),
                    height: Int(sqlite3_column_int64(statement, 8)),
                    error: text(statement, 9),
                    errorVersion: text(statement, 10)))
            }
            return rows
        }
    }

    public func insert(_ entry: CatalogEntry) throws -> Int {
        try lock.withLock { _ in
            // INSERT OR IGNORE: a second process may have added the same path a moment ago;
            // then its id is the id.
            let statement = try prepare("""
                INSERT OR IGNORE INTO photos (path, present, size, modified, inode, content_hash, width, height, error, error_version)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                """)
            defer { sqlite3_finalize(statement) }
            bind(entry, to: statement)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("adding \(entry.path)") }
            let lookup = try prepare("SELECT id FROM photos WHERE path = ?1")
            defer { sqlite3_finalize(lookup) }
            sqlite3_bind_text(lookup, 1, entry.path, -1, transient)
            guard sqlite3_step(lookup) == SQLITE_ROW else { throw failure("finding \(entry.path)") }
            return Int(sqlite3_column_int64(lookup, 0))
        }
    }

    public func update(_ entry: CatalogEntry) throws {
        try lock.withLock { _ in
            let statement = try prepare("""
                UPDATE photos SET path = ?1, present = ?2, size = ?3, modified = ?4, inode = ?5, content_hash = ?6,
                    width = ?7, height = ?8, error = ?9, error_version = ?10 WHERE id = ?11
                """)
            defer { sqlite3_finalize(statement) }
            bind(entry, to: statement)
            sqlite3_bind_int64(statement, 11, Int64(entry.id))
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("updating \(entry.path)") }
        }
    }

    // MARK: - SQLite plumbing

    private var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    private func bind(_ entry: CatalogEntry, to statement: OpaquePointer) {
        sqlite3_bind_text(statement, 1, entry.path, -1, transient)
        sqlite3_bind_int64(statement, 2, entry.present ? 1 : 0)
        sqlite3_bind_int64(statement, 3, Int64(entry.fingerprint.size))
        sqlite3_bind_int64(statement, 4, Int64(entry.fingerprint.modified))
        sqlite3_bind_int64(statement, 5, Int64(entry.fingerprint.inode))
        sqlite3_bind_text(statement, 6, entry.contentHash, -1, transient)
        sqlite3_bind_int64(statement, 7, Int64(entry.width))
        sqlite3_bind_int64(statement, 8, Int64(entry.height))
        if let error = entry.error { sqlite3_bind_text(statement, 9, error, -1, transient) } else { sqlite3_bind_null(statement, 9) }
        if let version = entry.errorVersion { sqlite3_bind_text(statement, 10, version, -1, transient) } else { sqlite3_bind_null(statement, 10) }
    }

    private func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let c = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: c)
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure("preparing a statement")
        }
        return statement
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure("setting up the catalog") }
    }

    private func failure(_ doing: String) -> CatalogStoreError {
        CatalogStoreError(description: "SQLite failed \(doing): \(String(cString: sqlite3_errmsg(db)))")
    }
}
