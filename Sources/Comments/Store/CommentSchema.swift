import SQL

/// The comment tables' schema history, the same steps on SQLite and PostgreSQL. Append steps;
/// never edit one that has shipped, because databases in the field ran it.
///
/// Files made before the shared SQL layer recorded their version in `PRAGMA user_version`;
/// `adoptExisting` takes it from there, so those files are carried on without running a step twice.
public enum CommentSchema {
    public static let schema = SQLSchema(name: "comments", migrations: [
        SQLMigration(version: 1, name: "comments table") { d in """
            CREATE TABLE comments (
                id \(d.generatedPrimaryKey),
                photo_id \(d.bigint) NOT NULL,
                author TEXT NOT NULL,
                text TEXT NOT NULL,
                created_at \(d.bigint) NOT NULL
            );
            CREATE INDEX comments_by_photo ON comments (photo_id, id);
            """ },
        // The generated key never hands an id out twice, even after a deletion: live listeners
        // resume from the last id they saw, so a reused id would hide a comment from them.
        SQLMigration(version: 2, name: "poster address and deletion audit") { d in """
            ALTER TABLE comments ADD COLUMN client TEXT NOT NULL DEFAULT '';
            CREATE INDEX comments_by_client ON comments (client, created_at);
            CREATE TABLE comment_deletions (
                comment_id \(d.bigint) PRIMARY KEY,
                photo_id \(d.bigint) NOT NULL,
                client TEXT NOT NULL,
                deleted_at \(d.bigint) NOT NULL
            );
            """ },
        // Which file each commented photo id meant, so a renumbered catalog is noticed at start.
        SQLMigration(version: 3, name: "photo identities beside the comments") { d in """
            CREATE TABLE photo_identities (
                photo_id \(d.bigint) PRIMARY KEY,
                path TEXT NOT NULL,
                content_hash TEXT NOT NULL
            );
            """ },
        // One token bucket per client, shared by every replica of a database (see `SQLCommentRateLimiter`).
        SQLMigration(version: 4, name: "comment rate buckets") { d in """
            CREATE TABLE comment_rate_buckets (
                client TEXT PRIMARY KEY,
                tokens \(d.double) NOT NULL,
                updated_at \(d.double) NOT NULL,
                allowed \(d.bigint) NOT NULL
            );
            CREATE INDEX comment_rate_buckets_by_time ON comment_rate_buckets (updated_at);
            CREATE INDEX comment_deletions_by_time ON comment_deletions (deleted_at);
            """ },
        // Whether the author is the signed-in account that posted (1) or a name someone typed (0);
        // comments from before were typed names, so they are not verified.
        SQLMigration(version: 5, name: "verified authors") { d in """
            ALTER TABLE comments ADD COLUMN verified \(d.bigint) NOT NULL DEFAULT 0;
            """ },
    ], adoptExisting: { connection in
        // Only SQLite files carry a version of their own; a PostgreSQL database starts at 0.
        guard connection.engine == .sqlite else { return 0 }
        return try connection.scalar("PRAGMA user_version", as: Int.self) ?? 0
    })

    /// The version this build brings a database to.
    public static var latestVersion: Int { schema.latestVersion }
}
