import Foundation
import SQL
import XCTest
@testable import App

/// A data folder (or PostgreSQL database) holding a row in every table a backup keeps, written
/// through the schemas' own migrations, with gaps in the ids that a restore must keep.
enum BackupFixture {
    /// Settings for SQLite files in `data`, or for `database` when given.
    static func configuration(data: String, database: PostgresURL? = nil) -> Configuration {
        var configuration = Configuration()
        configuration.data = data
        configuration.database = database?.description ?? ""
        return configuration
    }

    static func scratchFolder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    /// Fills every table; the last comment (id 3) is deleted, so the key's mark (3) is above the largest id (2).
    static func fill(_ databases: ApplicationDatabases) throws {
        for store in BackupLayout.stores {
            for schema in store.schemas { try BackupLayout.database(of: store, in: databases).migrate(schema) }
        }
        try databases.catalog.transaction { tx in
            try tx.run("INSERT INTO photos (id, path, content_hash, width, height, taken) VALUES (1, 'a.jpg', 'h1', 640, 480, '2024-05-01T10:00:00Z')")
            try tx.run("INSERT INTO photos (id, path, content_hash, width, height, present) VALUES (4, 'b/c.jpg', 'h4', 10, 20, 0)")
            try tx.run("INSERT INTO albums (id, path) VALUES (2, 'b')")
        }
        try databases.comments.transaction { tx in
            for (id, text) in [(1, "first"), (2, "second, with \"quotes\" and ünïcode\nand a newline"), (3, "deleted")] {
                try tx.run("INSERT INTO comments (id, photo_id, author, text, created_at, client) VALUES (\(id), 1, 'ana', \(text), 1700000000, '127.0.0.1')")
            }
            try tx.run("DELETE FROM comments WHERE id = 3")
            try tx.run("INSERT INTO comment_deletions (comment_id, photo_id, client, deleted_at) VALUES (3, 1, '127.0.0.1', 1700000100)")
            try tx.run("INSERT INTO photo_identities (photo_id, path, content_hash) VALUES (1, 'a.jpg', 'h1')")
            try tx.run("INSERT INTO comment_rate_buckets (client, tokens, updated_at, allowed) VALUES ('127.0.0.1', 2.5, 1700000000.25, 7)")
            try tx.run("INSERT INTO users (id, name, role, password_hash, created_at, password_changed_at) VALUES (5, 'ana', 'owner', '$argon2id$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA', 1, 1)")
            try tx.run("INSERT INTO sessions (digest, user_id, created_at, last_seen, expires_at) VALUES ('d1', 5, 1, 1, 4000000000)")
            try tx.run("INSERT INTO shares (id, token, photo_id, created_by, created_at, download, comments, location) VALUES (7, 'tok', 1, 5, 1, 0, 1, 0)")
            try tx.run("INSERT INTO setup_tokens (digest, created_at) VALUES ('s1', 1)")
            try tx.run("INSERT INTO token_digest_key (id, secret) VALUES (1, \(String(repeating: "ab", count: 32)))")
            try tx.run("INSERT INTO favourites (photo_id, created_at) VALUES (1, 1)")
            try tx.run("INSERT INTO collection_albums (id, title, position, cover_id, created_at) VALUES (3, 'Picks', 0, 1, 1)")
            try tx.run("INSERT INTO collection_albums (id, title, position, created_at) VALUES (6, 'Later', 1, 2)")
            try tx.run("INSERT INTO collection_album_photos (album_id, photo_id, position, added_at) VALUES (3, 1, 0, 1)")
            try tx.run("INSERT INTO collection_album_photos (album_id, photo_id, position, added_at) VALUES (3, 4, 1, 2)")
            try tx.run("INSERT INTO trash (id, batch, photo_id, path, size, deleted_at) VALUES ('t1', 'b1', 4, 'b/c.jpg', 99, 2)")
            try tx.run("INSERT INTO uploads (id, length, client, created_at, expires_at, state, album) VALUES ('u1', 100, 'ana', 1, 2, 'receiving', NULL)")
        }
    }

    /// Each table's rows as column name → value, in key order: what two engines must agree on,
    /// whatever order their columns stand in.
    static func contents(_ snapshot: BackupSnapshot) -> [String: [[String: SQLValue]]] {
        var tables: [String: [[String: SQLValue]]] = [:]
        for table in snapshot.tables {
            tables[table.name] = table.rows.map { Dictionary(uniqueKeysWithValues: zip(table.columns, $0)) }
        }
        return tables
    }
}
