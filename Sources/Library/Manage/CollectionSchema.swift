import SQL

/// The tables of what people do with their photos beside the folder: favourites, the trash and
/// albums.
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
        // Albums are collections: a photo in any number of them, nothing of a file touched.
        // Named apart from the catalog's `albums` (the folders' ids), which PostgreSQL keeps in
        // the same database. Members stay while their photo is in the trash (a restored photo
        // gets its id back, and its albums with it) and go when it is deleted for good.
        SQLMigration(version: 2, name: "albums as collections") { d in """
            CREATE TABLE collection_albums (
                id \(d.generatedPrimaryKey),
                title TEXT NOT NULL,
                position \(d.bigint) NOT NULL,
                cover_id \(d.bigint),
                created_at \(d.bigint) NOT NULL
            );
            CREATE TABLE collection_album_photos (
                album_id \(d.bigint) NOT NULL,
                photo_id \(d.bigint) NOT NULL,
                position \(d.bigint) NOT NULL,
                added_at \(d.bigint) NOT NULL,
                PRIMARY KEY (album_id, photo_id)
            );
            CREATE INDEX collection_album_photos_by_photo ON collection_album_photos (photo_id);
            """ },
        // An album's photos shown by date taken (`taken`) or in the order its people put them
        // (`custom`: `collection_album_photos.position`, which until now only kept the order added).
        SQLMigration(version: 3, name: "albums in their own order") { _ in """
            ALTER TABLE collection_albums ADD COLUMN photo_order TEXT NOT NULL DEFAULT 'taken';
            """ },
    ])
}
