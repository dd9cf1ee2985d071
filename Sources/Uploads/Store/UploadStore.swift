import SQL

/// Uploads in a SQL database, SQLite or PostgreSQL: every replica on one database sees every
/// upload, so a PATCH may reach any of them (the bytes are in the shared data folder).
public final class UploadStore: Sendable {
    public let database: SQLDatabase

    /// Opens the uploads in `database`, bringing their schema up to date.
    public init(database: SQLDatabase) throws {
        self.database = database
        try database.migrate(UploadSchema.schema)
    }

    public func insert(_ record: UploadRecord) throws {
        try database.run("""
            INSERT INTO uploads (id, length, received, metadata, file_name, album, client, created_at, expires_at, state, content_hash,
                                 photo_path, duplicate, share)
            VALUES (\(record.id.text), \(record.length), \(record.received), \(record.metadata), \(record.fileName), \(record.folder),
                    \(record.client), \(record.createdAt), \(record.expiresAt), \(record.state.rawValue), \(record.contentHash),
                    \(record.photoPath), \(record.duplicate), \(record.share))
            """)
    }

    /// The upload, or nil when there is none by that id (never made, terminated, or expired and swept).
    public func record(_ id: UploadID) throws -> UploadRecord? {
        try database.query("SELECT \(raw: UploadRecord.columns) FROM uploads WHERE id = \(id.text)", as: UploadRecord.self).first
    }

    /// Writes down how many bytes have arrived and when the upload now expires.
    public func received(_ id: UploadID, bytes: Int, expiresAt: Int) throws {
        try database.run("UPDATE uploads SET received = \(bytes), expires_at = \(expiresAt) WHERE id = \(id.text) AND state = 'receiving'")
    }

    /// Marks the upload complete: its bytes are the photo at `photoPath` (`duplicate`: one that was there already).
    public func complete(_ id: UploadID, length: Int, contentHash: String, photoPath: String, duplicate: Bool, expiresAt: Int) throws {
        try database.run("""
            UPDATE uploads SET state = 'complete', length = \(length), received = \(length), content_hash = \(contentHash),
                               photo_path = \(photoPath), duplicate = \(duplicate), expires_at = \(expiresAt)
            WHERE id = \(id.text)
            """)
    }

    public func delete(_ id: UploadID) throws {
        try database.run("DELETE FROM uploads WHERE id = \(id.text)")
    }

    /// How many uploads `client` has that are still receiving.
    public func receivingCount(client: String) throws -> Int {
        try database.scalar("SELECT count(*) FROM uploads WHERE client = \(client) AND state = 'receiving'", as: Int.self) ?? 0
    }

    /// Completed uploads whose bytes hashed to `contentHash`, oldest first.
    public func completed(contentHash: String) throws -> [UploadRecord] {
        try database.query("""
            SELECT \(raw: UploadRecord.columns) FROM uploads WHERE content_hash = \(contentHash) AND state = 'complete' ORDER BY created_at
            """, as: UploadRecord.self)
    }

    /// Uploads whose time is up at `now` (unix seconds), at most `limit` of them.
    public func expired(now: Int, limit: Int = 500) throws -> [UploadRecord] {
        try database.query("""
            SELECT \(raw: UploadRecord.columns) FROM uploads WHERE expires_at <= \(now) ORDER BY expires_at LIMIT \(limit)
            """, as: UploadRecord.self)
    }
}
