import SQL

/// An album's own order: its photos put in the order its people choose, shown so instead of by
/// date taken (`AlbumPhotoOrder`). The order is `collection_album_photos.position`, 0 first.
extension CollectionStore {
    /// Puts an album's photos in the order of `ids` (each one of its photos, once), the photos
    /// not named after them as they were, and shows the album in its own order from then on;
    /// nil when there is no such album.
    func orderPhotos(_ ids: [Int], in album: Int) throws -> PhotoAlbum? {
        try changeOrder(of: album) { current in
            let named = Set(ids)
            return ids + current.filter { !named.contains($0) }
        }
    }

    /// Shows an album by date taken again (its own order is kept, for when it is asked for again).
    func orderPhotosByDate(in album: Int) throws -> PhotoAlbum? {
        let updated = try database.transaction { tx -> PhotoAlbum? in
            guard try Self.album(album, tx) != nil else { return nil }
            try tx.run("UPDATE collection_albums SET photo_order = \(AlbumPhotoOrder.taken.rawValue) WHERE id = \(album)")
            try Self.announce(CollectionChange(albums: [album]), tx)
            return try Self.album(album, tx)
        }
        return updated
    }

    /// Puts photos at `position` of an album's own order (0 first; past the end: last), in the
    /// order given: those not in it join it, those in it move there; the album is shown in its
    /// own order from then on. Nil when there is no such album.
    func placePhotos(_ ids: [Int], in album: Int, at position: Int, now: Int) throws -> PhotoAlbum? {
        var seen = Set<Int>()
        let placed = ids.filter { seen.insert($0).inserted }
        var joined: [Int] = []
        let updated = try changeOrder(of: album, now: now, joining: { joined = $0 }) { current in
            var rest = current.filter { !seen.contains($0) }
            rest.insert(contentsOf: placed, at: min(max(0, position), rest.count))
            return rest
        }
        albumsChanged(for: joined)
        return updated
    }

    /// Rewrites an album's order as `reorder` makes it from the current one, adding any photo it
    /// names that was not in the album (`joining` is told which), and shows the album in its own order.
    private func changeOrder(of album: Int, now: Int = 0, joining: ([Int]) -> Void = { _ in },
                             _ reorder: ([Int]) -> [Int]) throws -> PhotoAlbum? {
        let updated = try database.transaction { tx -> PhotoAlbum? in
            guard let stored = try Self.album(album, tx) else { return nil }
            let members = Set(stored.photoIDs)
            let order = reorder(stored.photoIDs)
            let newcomers = order.filter { !members.contains($0) }
            joining(newcomers)
            for (position, id) in order.enumerated() {
                if members.contains(id) {
                    try tx.run("UPDATE collection_album_photos SET position = \(position) WHERE album_id = \(album) AND photo_id = \(id)")
                } else {
                    try tx.run("""
                        INSERT INTO collection_album_photos (album_id, photo_id, position, added_at) VALUES (\(album), \(id), \(position), \(now))
                        """)
                }
            }
            try tx.run("UPDATE collection_albums SET photo_order = \(AlbumPhotoOrder.custom.rawValue) WHERE id = \(album)")
            try Self.announce(CollectionChange(albums: [album]), tx)
            return try Self.album(album, tx)
        }
        forgetMembers()
        return updated
    }
}
