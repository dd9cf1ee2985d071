/// What a viewer of the library reads: the photos, their lists and a photo's place in them,
/// the list's generation, folders (the catalog's albums), and the changes to follow live.
///
/// The photo routes, the live feed, the summary, search and share links take this role; none
/// of it writes. `PhotoLibrary` is the one conformer.
public protocol PhotoBrowsing: AnyObject, Sendable {
    /// Every listed photo in id order.
    var photos: [Photo] { get }
    /// One photo, or nil.
    func photo(_ id: Int) -> Photo?
    /// The present photo stored under a relative path, or nil.
    func photo(relativePath: String) -> Photo?
    /// How many photos are listed.
    var count: Int { get }
    /// Bumped by every change a reader could see; equal generations mean equal lists.
    var generation: Int { get }
    /// True once a listing exists.
    var isReady: Bool { get }
    /// Up to `limit` photos of a list after the one with id `after` (from the start when nil),
    /// with the list's total and whether more follow; nil when the album has no photos.
    func page(after: Int?, limit: Int, order: PhotoOrder, scope: PhotoScope) -> (photos: [Photo], total: Int, more: Bool)?
    /// A listed photo with its place in a list; nil when the photo is not in that list.
    func neighbours(of id: Int, order: PhotoOrder, scope: PhotoScope) -> (photo: Photo, position: Int, previous: Int?, next: Int?)?
    /// Every photo of a list in its order, with the generation it belongs to; nil for an album
    /// without photos.
    func ordered(_ order: PhotoOrder, scope: PhotoScope) -> (generation: Int, photos: [Photo])?
    /// The photos as they are now, with the size of those not examined yet read from their headers.
    func probeSizes(_ photos: [Photo]) -> [Photo]
    /// The date keys (`Photo.takenKey`) of photos by id, nil for one not listed.
    func takenKeys(_ ids: [Int]) -> [Int64?]
    /// Calls `observer` (on the thread that made the change) after every change to the list.
    func observeChanges(_ observer: @escaping @Sendable (CatalogChange) -> Void)
    /// Every folder with photos, by name (numbers as numbers).
    func albums() -> [Album]
    /// One folder with photos, or nil.
    func album(_ id: Int) -> Album?
    /// The folder a listed photo is directly in; nil for a photo in the root folder or not listed.
    func albumID(ofPhoto id: Int) -> Int?
    /// Someone opened this photo: it is examined now when it was not, and its build goes first.
    func prepareForViewing(_ id: Int)
    /// Returns once no tile has been rendered for a viewer for a moment: background readers of
    /// the list (the search index) wait here between their steps.
    func waitForViewersToSettle()
}
