/// One step of the comment database's schema, applied once, in order, inside a transaction.
struct SchemaMigration: Sendable {
    /// The `PRAGMA user_version` the database has after this step.
    let version: Int
    let summary: String
    let sql: String
}

/// The comment database's schema history. `PRAGMA user_version` records how far a file has come;
/// opening a file runs the steps it lacks. To change the schema, append a step; never edit one
/// that has shipped, because files in the field already ran it.
enum CommentSchema {
    static let migrations: [SchemaMigration] = [
        SchemaMigration(version: 1, summary: "comments table", sql: """
            CREATE TABLE comments (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                photo_id INTEGER NOT NULL,
                author TEXT NOT NULL,
                text TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX comments_by_photo ON comments (photo_id, id);
            """),
        // AUTOINCREMENT above keeps ids from ever being reused after a deletion: live listeners
        // resume from the last id they saw, so a reused id would hide a comment from them.
        SchemaMigration(version: 2, summary: "poster address and deletion audit", sql: """
            ALTER TABLE comments ADD COLUMN client TEXT NOT NULL DEFAULT '';
            CREATE INDEX comments_by_client ON comments (client, created_at);
            CREATE TABLE comment_deletions (
                comment_id INTEGER PRIMARY KEY,
                photo_id INTEGER NOT NULL,
                client TEXT NOT NULL,
                deleted_at INTEGER NOT NULL
            );
            """),
        // Which file each commented photo id meant, so a renumbered catalog is noticed at start.
        SchemaMigration(version: 3, summary: "photo identities beside the comments", sql: """
            CREATE TABLE photo_identities (
                photo_id INTEGER PRIMARY KEY,
                path TEXT NOT NULL,
                content_hash TEXT NOT NULL
            );
            """),
    ]

    /// The version this build writes.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the database up to `target` (default: the latest); returns the version found and the version reached.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock before reading the version, so two processes
    /// opening the same new file cannot both run step 1.
    @discardableResult
    static func migrate(_ db: SQLiteConnection, upTo target: Int = latestVersion) throws -> (from: Int, to: Int) {
        try db.execute("BEGIN IMMEDIATE")
        do {
            let found = try db.scalar("PRAGMA user_version") ?? 0
            guard found <= latestVersion else {
                throw CommentStoreError.schemaTooNew(found: found, known: latestVersion)
            }
            var reached = found
            for migration in migrations where migration.version > found && migration.version <= target {
                try db.execute(migration.sql)
                reached = migration.version
            }
            if reached != found { try db.execute("PRAGMA user_version = \(reached)") }
            try db.execute("COMMIT")
            return (found, reached)
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
