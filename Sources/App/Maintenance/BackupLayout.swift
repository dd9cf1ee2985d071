import Access
import Comments
import Library
import SQL
import Uploads

/// What a backup holds: every table that is not learnt again from the folders. Pyramids,
/// thumbnails and the photos themselves are files, and stay out.
enum BackupLayout {
    static let catalog = BackupStore(name: "catalog", schemas: [CatalogSchema.schema], tables: ["photos", "albums"])
    static let comments = BackupStore(
        name: "comments",
        schemas: [CommentSchema.schema, AccessSchema.schema, CollectionSchema.schema, UploadSchema.schema],
        tables: ["comments", "comment_deletions", "photo_identities", "comment_rate_buckets",
                 "users", "sessions", "token_digest_key", "shares", "setup_tokens", "favourites", "trash", "collection_albums", "collection_album_photos",
                 "uploads"])
    static let stores = [catalog, comments]

    /// Sessions are left out unless asked for: a restored server then asks everyone to sign in again.
    /// The key their digests were made under goes with them (a restored server without it makes its own).
    static let sessionTables: Set<String> = ["sessions", "token_digest_key"]

    /// Every schema a backup may name, by name.
    static var schemas: [String: SQLSchema] {
        Dictionary(uniqueKeysWithValues: stores.flatMap(\.schemas).map { ($0.name, $0) })
    }

    /// The store's database among the application's.
    static func database(of store: BackupStore, in databases: ApplicationDatabases) -> SQLDatabase {
        store.name == catalog.name ? databases.catalog : databases.comments
    }

    /// The stores grouped by the database they live in: two groups on SQLite, one on PostgreSQL.
    static func groups(in databases: ApplicationDatabases) -> [(SQLDatabase, [BackupStore])] {
        if databases.catalog === databases.comments { return [(databases.catalog, stores)] }
        return stores.map { (database(of: $0, in: databases), [$0]) }
    }
}
