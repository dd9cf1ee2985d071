import SQL

/// The tables of accounts, sessions, share links and the one-time setup link, the same steps
/// on SQLite and PostgreSQL. Append steps; never edit one that has shipped.
public enum AccessSchema {
    public static let schema = SQLSchema(name: "access", migrations: [
        // Passwords as Argon2id PHC strings; names unique as typed.
        SQLMigration(version: 1, name: "users") { d in """
            CREATE TABLE users (
                id \(d.generatedPrimaryKey),
                name TEXT NOT NULL UNIQUE,
                role TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                created_at \(d.bigint) NOT NULL,
                password_changed_at \(d.bigint) NOT NULL
            );
            """ },
        // A session is a user's (user_id) or a password-protected share link's once its password
        // was given (share_id). Only a digest of its token is kept: a copy of the table opens nothing.
        SQLMigration(version: 2, name: "sessions") { d in """
            CREATE TABLE sessions (
                digest TEXT PRIMARY KEY,
                user_id \(d.bigint),
                share_id \(d.bigint),
                created_at \(d.bigint) NOT NULL,
                last_seen \(d.bigint) NOT NULL,
                expires_at \(d.bigint) NOT NULL
            );
            CREATE INDEX sessions_by_user ON sessions (user_id);
            CREATE INDEX sessions_by_share ON sessions (share_id);
            CREATE INDEX sessions_by_expiry ON sessions (expires_at);
            """ },
        // A link to one album or one photo. The token is the link itself and is kept as it is,
        // so its owner can copy it again; expires_at NULL is a link that never expires.
        SQLMigration(version: 3, name: "share links") { d in """
            CREATE TABLE shares (
                id \(d.generatedPrimaryKey),
                token TEXT NOT NULL UNIQUE,
                album_id \(d.bigint),
                photo_id \(d.bigint),
                created_by \(d.bigint) NOT NULL,
                created_at \(d.bigint) NOT NULL,
                expires_at \(d.bigint),
                password_hash TEXT,
                download \(d.bigint) NOT NULL,
                comments \(d.bigint) NOT NULL,
                location \(d.bigint) NOT NULL
            );
            """ },
        // Digests of the one-time setup links printed while no owner exists; all go once one does.
        SQLMigration(version: 4, name: "setup tokens") { d in """
            CREATE TABLE setup_tokens (
                digest TEXT PRIMARY KEY,
                created_at \(d.bigint) NOT NULL
            );
            """ },
        // Whether an album's link lets its holder add photos to that album (never a photo's link).
        SQLMigration(version: 5, name: "share uploads") { d in """
            ALTER TABLE shares ADD COLUMN upload \(d.bigint) NOT NULL DEFAULT 0;
            """ },
        // Albums became collections and folders are folders: every album_id written before is a
        // folder's id, so those links become folder links and go on showing what they showed.
        SQLMigration(version: 6, name: "folder share links") { d in """
            ALTER TABLE shares ADD COLUMN folder_id \(d.bigint);
            UPDATE shares SET folder_id = album_id, album_id = NULL WHERE album_id IS NOT NULL;
            """ },
        // Token digests became keyed BLAKE2b (`TokenDigest`): each row says how its digest was
        // made, every one written before being the old Argon2id (`LegacyTokenDigest`), rewritten
        // on its first use. The key is one row, made once by whichever process comes first
        // (`AccessStore.tokenDigestKey`), so every replica on a shared database has the same.
        SQLMigration(version: 7, name: "keyed token digests") { d in """
            ALTER TABLE sessions ADD COLUMN digest_scheme TEXT NOT NULL DEFAULT 'argon2id';
            ALTER TABLE setup_tokens ADD COLUMN digest_scheme TEXT NOT NULL DEFAULT 'argon2id';
            CREATE TABLE token_digest_key (
                id \(d.bigint) PRIMARY KEY,
                secret TEXT NOT NULL
            );
            """ },
    ])
}
