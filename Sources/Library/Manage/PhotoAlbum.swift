import SQL

/// An album as people make them: a title and any photos, each photo in any number of albums.
/// Nothing of it is a file: adding, removing or deleting the album never touches a photo.
public struct PhotoAlbum: Sendable, Equatable {
    /// Given once, never reused.
    public var id: Int
    public var title: String
    /// Its place among the albums, 0 first.
    public var position: Int
    /// The photo chosen to stand for it; nil: the newest of its photos.
    public var coverID: Int?
    /// Unix seconds.
    public var createdAt: Int
    /// Its photos in its own order: as they were added, unless people put them in another (a
    /// photo in the trash stays until deleted for good).
    public var photoIDs: [Int]
    /// Whether its photos are shown by date taken or in its own order.
    public var photoOrder: AlbumPhotoOrder

    public init(id: Int, title: String, position: Int, coverID: Int?, createdAt: Int, photoIDs: [Int],
                photoOrder: AlbumPhotoOrder = .taken) {
        self.id = id
        self.title = title
        self.position = position
        self.coverID = coverID
        self.createdAt = createdAt
        self.photoIDs = photoIDs
        self.photoOrder = photoOrder
    }

    /// The longest title kept, in characters.
    public static let maxTitleLength = 200
}

/// Albums in SQL, beside favourites and the trash in `CollectionStore`.
extension CollectionStore {
    /// Every album in its order, with its photos.
    func albums() throws -> [PhotoAlbum] {
        try database.transaction(.read) { tx in
            var members: [Int: [Int]] = [:]
            for row in try tx.query("SELECT album_id, photo_id FROM collection_album_photos ORDER BY album_id, position, photo_id") {
                members[try row.decode(0), default: []].append(try row.decode(1))
            }
            return try tx.query("SELECT \(raw: Self.albumColumns) FROM collection_albums ORDER BY position, id").map { row in
                try Self.album(row, photos: members[try row.decode(0)] ?? [])
            }
        }
    }

    /// One album with its photos, or nil.
    func album(_ id: Int) throws -> PhotoAlbum? {
        try database.transaction(.read) { tx in try Self.album(id, tx) }
    }

    /// A new, empty album, placed after every other.
    func createAlbum(title: String, now: Int) throws -> PhotoAlbum {
        let album = try database.transaction { tx in
            let position = (try tx.scalar("SELECT max(position) FROM collection_albums", as: Int?.self) ?? nil).map { $0 + 1 } ?? 0
            let id = try tx.scalar("""
                INSERT INTO collection_albums (title, position, cover_id, created_at) VALUES (\(title), \(position), \(nil as Int?), \(now))
                RETURNING id
                """, as: Int.self) ?? 0
            try Self.announce(CollectionChange(albums: [id]), tx)
            return PhotoAlbum(id: id, title: title, position: position, coverID: nil, createdAt: now, photoIDs: [])
        }
        forgetMembers()
        return album
    }

    /// Changes an album's title, cover or place; nil when there is no such album.
    func updateAlbum(_ id: Int, _ change: AlbumChange) throws -> PhotoAlbum? {
        let updated = try database.transaction { tx -> PhotoAlbum? in
            guard try Self.album(id, tx) != nil else { return nil }
            // Moved among the others, every album's place changes.
            try Self.announce(CollectionChange(albums: change.position == nil ? [id] : try Self.albumIDs(tx)), tx)
            if let title = change.title { try tx.run("UPDATE collection_albums SET title = \(title) WHERE id = \(id)") }
            if let cover = change.cover { try tx.run("UPDATE collection_albums SET cover_id = \(cover) WHERE id = \(id)") }
            if let position = change.position {
                var order = try tx.query("SELECT id FROM collection_albums ORDER BY position, id").map { try $0.decode(0, as: Int.self) }
                order.removeAll { $0 == id }
                order.insert(id, at: min(max(0, position), order.count))
                for (place, album) in order.enumerated() {
                    try tx.run("UPDATE collection_albums SET position = \(place) WHERE id = \(album)")
                }
            }
            return try Self.album(id, tx)
        }
        if let updated, change.title != nil { albumsChanged(for: updated.photoIDs) }
        return updated
    }

    /// Deletes an album; its photos stay where they are. False when there was none.
    @discardableResult
    func deleteAlbum(_ id: Int) throws -> Bool {
        let members = try database.transaction { tx -> [Int]? in
            let photos = try tx.query("SELECT photo_id FROM collection_album_photos WHERE album_id = \(id)").map { try $0.decode(0, as: Int.self) }
            try tx.run("DELETE FROM collection_album_photos WHERE album_id = \(id)")
            guard try tx.run("DELETE FROM collection_albums WHERE id = \(id)") > 0 else { return nil }
            try Self.announce(CollectionChange(albums: [id]), tx)
            return photos
        }
        forgetMembers()
        if let members { albumsChanged(for: members) }
        return members != nil
    }

    /// Adds photos to an album after its last, once each (a photo already in it stays where it
    /// is); nil when there is no such album.
    func addPhotos(_ ids: [Int], to album: Int, now: Int) throws -> PhotoAlbum? {
        let updated = try database.transaction { tx -> PhotoAlbum? in
            guard try Self.album(album, tx) != nil else { return nil }
            try Self.announce(CollectionChange(albums: [album]), tx)
            var position = (try tx.scalar("SELECT max(position) FROM collection_album_photos WHERE album_id = \(album)", as: Int?.self) ?? nil)
                .map { $0 + 1 } ?? 0
            for id in ids {
                let added = try tx.run("""
                    INSERT INTO collection_album_photos (album_id, photo_id, position, added_at) VALUES (\(album), \(id), \(position), \(now))
                    ON CONFLICT (album_id, photo_id) DO NOTHING
                    """)
                position += added
            }
            return try Self.album(album, tx)
        }
        forgetMembers()
        if updated != nil { albumsChanged(for: ids) }
        return updated
    }

    /// Takes photos out of an album (the photos themselves stay); nil when there is no such album.
    func removePhotos(_ ids: [Int], from album: Int) throws -> PhotoAlbum? {
        let updated = try database.transaction { tx -> PhotoAlbum? in
            guard try Self.album(album, tx) != nil else { return nil }
            try Self.announce(CollectionChange(albums: [album]), tx)
            for id in ids {
                try tx.run("DELETE FROM collection_album_photos WHERE album_id = \(album) AND photo_id = \(id)")
                try tx.run("UPDATE collection_albums SET cover_id = NULL WHERE id = \(album) AND cover_id = \(id)")
            }
            return try Self.album(album, tx)
        }
        forgetMembers()
        if updated != nil { albumsChanged(for: ids) }
        return updated
    }

    /// Takes photos deleted for good out of every album.
    func leaveAlbums(_ ids: [Int]) throws {
        guard !ids.isEmpty else { return }
        try database.transaction { tx in
            var albums: Set<Int> = []
            for id in ids {
                for row in try tx.query("SELECT album_id FROM collection_album_photos WHERE photo_id = \(id)") { albums.insert(try row.decode(0)) }
                try tx.run("DELETE FROM collection_album_photos WHERE photo_id = \(id)")
                try tx.run("UPDATE collection_albums SET cover_id = NULL WHERE cover_id = \(id)")
            }
            if !albums.isEmpty { try Self.announce(CollectionChange(albums: albums), tx) }
        }
        forgetMembers()
    }

    /// The photos of an album as a set, for checking a share link's photos on every request:
    /// kept for `membersSeconds`, so a change made by another replica shows within that time
    /// (this process's own changes at once). Nil when there is no such album.
    func members(of album: Int) throws -> Set<Int>? {
        try kept(album).ids
    }

    /// The photos of an album in its own order when it is shown in it, nil when it is shown by
    /// date taken (or there is no such album); kept as `members(of:)` is.
    func ownOrder(of album: Int) throws -> [Int]? {
        try kept(album).order
    }

    private func kept(_ album: Int) throws -> (ids: Set<Int>?, order: [Int]?) {
        let now = ContinuousClock.now
        if let kept = memberCache.withLock({ $0[album] }), now - kept.read < .seconds(Self.membersSeconds) { return (kept.ids, kept.order) }
        let stored = try self.album(album)
        let ids = stored.map { Set($0.photoIDs) }
        let order = stored.flatMap { $0.photoOrder == .custom ? $0.photoIDs : nil }
        memberCache.withLock { cache in
            if cache.count > 1000 { cache.removeAll() }
            cache[album] = (ids: ids, order: order, read: now)
        }
        return (ids, order)
    }

    /// How long `members(of:)` keeps what it read, in seconds.
    static let membersSeconds = 2

    /// The titles of the albums each photo is in (a photo in none is left out): what search
    /// finds a photo by, besides its own words.
    func albumTitlesByPhoto() throws -> [Int: [String]] {
        var titles: [Int: [String]] = [:]
        let rows = try database.query("""
            SELECT p.photo_id, a.title FROM collection_album_photos p JOIN collection_albums a ON a.id = p.album_id
            ORDER BY p.photo_id, a.position, a.id
            """)
        for row in rows { titles[try row.decode(0, as: Int.self), default: []].append(try row.decode(1, as: String.self)) }
        return titles
    }

    /// Calls `handler` with the photos whose albums changed for them (photos added to or taken out
    /// of an album, an album renamed or deleted) after each such change made through this store.
    func observeAlbumChanges(_ handler: @escaping @Sendable ([Int]) -> Void) {
        albumObservers.withLock { $0.append(handler) }
    }

    func albumsChanged(for photos: [Int]) {
        guard !photos.isEmpty else { return }
        for handler in albumObservers.withLock({ $0 }) { handler(photos) }
    }

    func forgetMembers() {
        memberCache.withLock { $0.removeAll() }
    }

    static func album(_ id: Int, _ tx: SQLConnection) throws -> PhotoAlbum? {
        guard let row = try tx.query("SELECT \(raw: albumColumns) FROM collection_albums WHERE id = \(id)").first else {
            return nil
        }
        let photos = try tx.query("SELECT photo_id FROM collection_album_photos WHERE album_id = \(id) ORDER BY position, photo_id")
            .map { try $0.decode(0, as: Int.self) }
        return try album(row, photos: photos)
    }

    static let albumColumns = "id, title, position, cover_id, created_at, photo_order"

    /// An album from a row of `albumColumns`; an order this version does not know is by date taken.
    private static func album(_ row: SQLRow, photos: [Int]) throws -> PhotoAlbum {
        PhotoAlbum(id: try row.decode(0), title: try row.decode(1), position: try row.decode(2), coverID: try row.decode(3),
                   createdAt: try row.decode(4), photoIDs: photos,
                   photoOrder: AlbumPhotoOrder(rawValue: try row.decode(5, as: String.self)) ?? .taken)
    }
}
