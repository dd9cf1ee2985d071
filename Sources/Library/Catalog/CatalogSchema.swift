import SQL

/// The catalog table's schema history: one list of steps, applied in order on SQLite and
/// PostgreSQL alike. Append steps; never edit one that has shipped, because databases in the
/// field ran it. A step whose SQL differs between the engines gives both texts
/// (`SQLMigration(version:name:sqlite:postgres:)`); one written with dialect fragments serves both.
///
/// Files made before the shared SQL layer recorded their version in `PRAGMA user_version`
/// (0: one row per path and no hash kind; 1: step 2's columns); `adoptExisting` carries them on.
public enum CatalogSchema {
    public static let schema = SQLSchema(name: "catalog", migrations: [
        // The first catalog: one row per path.
        SQLMigration(version: 1, name: "photos table") { d in """
            CREATE TABLE photos (
                id \(d.generatedPrimaryKey),
                path TEXT NOT NULL UNIQUE,
                present INTEGER NOT NULL DEFAULT 1,
                size \(d.bigint) NOT NULL DEFAULT 0,
                modified \(d.bigint) NOT NULL DEFAULT 0,
                inode \(d.bigint) NOT NULL DEFAULT 0,
                content_hash TEXT NOT NULL DEFAULT '',
                width INTEGER NOT NULL DEFAULT 0,
                height INTEGER NOT NULL DEFAULT 0,
                error TEXT,
                error_version TEXT
            );
            """ },
        // A path may sit on several rows as long as one at most is present (a photo moved onto
        // the path of a removed one); hashes stored before xxHash are the legacy kind (0).
        // SQLite cannot drop a UNIQUE constraint, so its table is copied.
        SQLMigration(version: 2, name: "hash kind, examination state, missing time; one present row per path",
                     sqlite: """
                        CREATE TABLE photos_v2 (
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
                        );
                        INSERT INTO photos_v2 (id, path, present, size, modified, inode, content_hash, hash_kind, hashed,
                                               width, height, error, error_version, missing_since)
                            SELECT id, path, present, size, modified, inode, content_hash, 0, 1, width, height, error, error_version, NULL
                            FROM photos;
                        DROP TABLE photos;
                        ALTER TABLE photos_v2 RENAME TO photos;
                        CREATE UNIQUE INDEX photos_present_path ON photos (path) WHERE present = 1;
                        """,
                     postgres: """
                        ALTER TABLE photos DROP CONSTRAINT photos_path_key;
                        ALTER TABLE photos ADD COLUMN hash_kind INTEGER NOT NULL DEFAULT 0;
                        ALTER TABLE photos ALTER COLUMN hash_kind SET DEFAULT 1;
                        ALTER TABLE photos ADD COLUMN hashed INTEGER NOT NULL DEFAULT 1;
                        ALTER TABLE photos ADD COLUMN missing_since BIGINT;
                        CREATE UNIQUE INDEX photos_present_path ON photos (path) WHERE present = 1;
                        """),
        // What a photo's header says (RFC 3339 date taken, where it came from, the details JSON),
        // and albums: the folders, with ids that stay when a folder is renamed. Rows stored before
        // have NULLs, read as "header not read yet"; the headers are read then, without any build.
        SQLMigration(version: 3, name: "date taken, details, albums") { d in """
            ALTER TABLE photos ADD COLUMN taken TEXT;
            ALTER TABLE photos ADD COLUMN taken_source TEXT;
            ALTER TABLE photos ADD COLUMN details TEXT;
            CREATE TABLE albums (
                id \(d.generatedPrimaryKey),
                path TEXT NOT NULL
            );
            """ },
    ], adoptExisting: { connection in
        // Only SQLite files carry a version of their own; a PostgreSQL database starts at 0.
        guard connection.engine == .sqlite else { return 0 }
        let tables = try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'photos'", as: Int.self) ?? 0
        guard tables > 0 else { return 0 }
        // user_version 0 is the first schema (step 1), 1 the second (step 2).
        return (try connection.scalar("PRAGMA user_version", as: Int.self) ?? 0) + 1
    })

    /// The version this build brings a database to.
    public static var latestVersion: Int { schema.latestVersion }
}
