import SQL

/// The upload tables' schema history, the same steps on SQLite and PostgreSQL. Append steps;
/// never edit one that has shipped.
public enum UploadSchema {
    public static let schema = SQLSchema(name: "uploads", migrations: [
        // One row per upload, from its creation until it expires; the bytes are in
        // `<data>/uploads/<id>` until the upload completes and the file moves into the photos folder.
        SQLMigration(version: 1, name: "uploads table") { d in """
            CREATE TABLE uploads (
                id TEXT PRIMARY KEY,
                length \(d.bigint) NOT NULL,
                received \(d.bigint) NOT NULL DEFAULT 0,
                metadata TEXT NOT NULL DEFAULT '',
                file_name TEXT NOT NULL DEFAULT '',
                album TEXT,
                client TEXT NOT NULL,
                created_at \(d.bigint) NOT NULL,
                expires_at \(d.bigint) NOT NULL,
                state TEXT NOT NULL,
                content_hash TEXT,
                photo_path TEXT,
                duplicate INTEGER NOT NULL DEFAULT 0,
                error TEXT
            );
            CREATE INDEX uploads_by_client ON uploads (client, state);
            CREATE INDEX uploads_by_expiry ON uploads (expires_at);
            CREATE INDEX uploads_by_hash ON uploads (content_hash);
            """ },
        // The share link an upload was made through (its holder may go on with it, nobody else
        // under a link); NULL for one of a signed-in person or of this machine.
        SQLMigration(version: 2, name: "uploads through share links") { d in """
            ALTER TABLE uploads ADD COLUMN share \(d.bigint);
            """ },
    ])

    /// The version this build brings a database to.
    public static var latestVersion: Int { schema.latestVersion }
}
