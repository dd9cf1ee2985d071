/// What people collect beside the folder: favourites, the trash's records and albums, in SQL,
/// so every replica on one database sees the same, with the changes each makes told to all.
///
/// The routes that show or change them, the live feed, share links, uploads and search take
/// this role; `PhotoLibrary.openCollections` makes the one conformer (its store is internal).
public protocol PhotoCollections: AnyObject, Sendable {
    /// Every favourite photo id, ascending.
    func favourites() throws -> [Int]
    /// Marks or unmarks photos as favourites.
    func setFavourite(_ ids: [Int], _ favourite: Bool, now: Int) throws
    /// Records a photo put in the trash.
    func insert(_ item: TrashItem) throws
    /// The trash, newest first.
    func trash() throws -> [TrashItem]
    /// The items of one batch put in the trash together.
    func trashItems(batch: String) throws -> [TrashItem]
    /// One item of the trash, or nil.
    func trashItem(_ id: String) throws -> TrashItem?
    /// Items deleted at or before `time` (unix seconds).
    func trash(deletedBefore time: Int) throws -> [TrashItem]
    /// Forgets an item of the trash; true when it was there (so two replicas never both act on one).
    @discardableResult
    func remove(_ id: String) throws -> Bool
    /// Every album in its order, with its photos.
    func albums() throws -> [PhotoAlbum]
    /// One album with its photos, or nil.
    func album(_ id: Int) throws -> PhotoAlbum?
    /// A new, empty album, placed after every other.
    func createAlbum(title: String, now: Int) throws -> PhotoAlbum
    /// Changes an album's title, cover or place; nil when there is no such album.
    func updateAlbum(_ id: Int, _ change: AlbumChange) throws -> PhotoAlbum?
    /// Deletes an album (its photos stay where they are); false when there was none.
    @discardableResult
    func deleteAlbum(_ id: Int) throws -> Bool
    /// Adds photos to an album after its last, once each; nil when there is no such album.
    func addPhotos(_ ids: [Int], to album: Int, now: Int) throws -> PhotoAlbum?
    /// Takes photos out of an album; nil when there is no such album.
    func removePhotos(_ ids: [Int], from album: Int) throws -> PhotoAlbum?
    /// Takes photos deleted for good out of every album.
    func leaveAlbums(_ ids: [Int]) throws
    /// Puts an album's photos in the order of `ids` and shows it so; nil when there is no such album.
    func orderPhotos(_ ids: [Int], in album: Int) throws -> PhotoAlbum?
    /// Shows an album by date taken again (its own order is kept).
    func orderPhotosByDate(in album: Int) throws -> PhotoAlbum?
    /// Puts photos at `position` of an album's own order; nil when there is no such album.
    func placePhotos(_ ids: [Int], in album: Int, at position: Int, now: Int) throws -> PhotoAlbum?
    /// The photos of an album as a set, kept a few seconds (a share link checks it on every
    /// request); nil when there is no such album.
    func members(of album: Int) throws -> Set<Int>?
    /// The photos of an album in its own order when it is shown so, else nil; kept as `members(of:)`.
    func ownOrder(of album: Int) throws -> [Int]?
    /// The titles of the albums each photo is in: what search finds a photo by.
    func albumTitlesByPhoto() throws -> [Int: [String]]
    /// Calls `handler` with the photos whose albums changed for them, after each such change.
    func observeAlbumChanges(_ handler: @escaping @Sendable ([Int]) -> Void)
    /// Calls `handler` after each change to albums, favourites or the trash, this process's or
    /// (on PostgreSQL) another's, once hearing has started.
    func observeCollectionChanges(_ handler: @escaping @Sendable (CollectionChange) -> Void)
    /// Starts hearing the changes announced on the database.
    func startHearing() throws
    /// Stops hearing; observers are told nothing more.
    func stopHearing()
}
