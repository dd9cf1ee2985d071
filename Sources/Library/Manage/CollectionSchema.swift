import SQL

/// The tables of what people do with their photos beside the folder: favourites and the trash.
/// The same steps on SQLite and PostgreSQL; append steps, never edit one that has shipped.
public enum CollectionSchema {
    public static let schema = SQLSchema(name: "collection", migrations: [
        // Favourites follow the photo id, which a move keeps. The trash remembers where each
        // photo was, so it goes back to the same path and gets its id (and comments) back.
        SQLMigration(version: 1, name: "favourites and trash") { d in """
            CREATE TABLE favourites (
                photo_id \(d.bigint) PRIMARY KEY,
                created_at \(d.bigint) NOT NULL
            );
            CREATE TABLE trash (
                id TEXT PRIMARY KEY,
                batch TEXT NOT NULL,
                photo_id \(d.bigint) NOT NULL,
                path TEXT NOT NULL,
                size \(d.bigint) NOT NULL,
                deleted_at \(d.bigint) NOT NULL
            );
            CREATE INDEX trash_by_batch ON trash (batch);
            CREATE INDEX trash_by_time ON trash (deleted_at);
            """ },
    ])
}
