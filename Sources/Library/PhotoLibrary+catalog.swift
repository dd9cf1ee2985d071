import FolderScan
import Imaging

/// What the application asks of the catalog, through the library: lists, pages and a photo's
/// place in them, the list's generation (what the summary is built per), albums, change
/// events, and the rows and files the commands work on. The catalog itself (`PhotoCatalog`)
/// is internal: these are its answers, as values.
extension PhotoLibrary {
    /// How many photos are listed.
    public var count: Int { catalog.count }

    /// Bumped by every change a reader could see; equal generations mean equal lists.
    public var generation: Int { catalog.generation }

    /// Up to `limit` photos of a list after the one with id `after` (from the start when nil),
    /// with the list's total and whether more follow; nil when the album has no photos.
    public func page(after: Int?, limit: Int, order: PhotoOrder = .taken, scope: PhotoScope = .library)
        -> (photos: [Photo], total: Int, more: Bool)? {
        catalog.page(after: after, limit: limit, order: order, scope: scope)
    }

    /// The photos as they are now, with the size of those not examined yet read from their
    /// headers (a page says how large each photo is).
    public func probeSizes(_ photos: [Photo]) -> [Photo] { catalog.probeSizes(photos) }

    /// A listed photo with its place in a list: position (0-based) and the ids before and after
    /// it; nil when the photo is not in that list.
    public func neighbours(of id: Int, order: PhotoOrder = .taken, scope: PhotoScope = .library)
        -> (photo: Photo, position: Int, previous: Int?, next: Int?)? {
        catalog.neighbours(of: id, order: order, scope: scope)
    }

    /// Every photo of a list in its order, with the generation it belongs to; nil for an album
    /// without photos.
    public func ordered(_ order: PhotoOrder = .taken, scope: PhotoScope = .library) -> (generation: Int, photos: [Photo])? {
        catalog.ordered(order, scope: scope)
    }

    /// Calls `observer` (on the thread that made the change) after every change to the list.
    public func observeChanges(_ observer: @escaping @Sendable (CatalogChange) -> Void) {
        catalog.observe(observer)
    }

    /// Every album with photos, by folder name (numbers as numbers).
    public func albums() -> [Album] { catalog.albums() }

    /// One album with photos, or nil.
    public func album(_ id: Int) -> Album? { catalog.album(id) }

    /// The album a listed photo is directly in; nil for a photo in the root folder or not listed.
    public func albumID(ofPhoto id: Int) -> Int? { catalog.albumID(ofPhoto: id) }

    /// The present photo stored under a relative path, or nil.
    public func photo(relativePath: String) -> Photo? { catalog.photo(relativePath: relativePath) }

    /// The photos folder, read only through its confined opener.
    public var folder: PhotoFolder { catalog.folder }

    /// The catalog row of an id, listed or not.
    func entry(_ id: Int) -> CatalogEntry? { catalog.entry(id) }

    /// Every stored row, present or not, in id order.
    var entries: [CatalogEntry] { catalog.entries }

    /// The file of a row, opened only while it is the file the scan listed.
    func source(of entry: CatalogEntry) -> PhotoSource { catalog.source(of: entry) }

    /// The file of a photo id, listed or not.
    public func file(_ id: Int) -> PhotoFile? { catalog.entry(id).map { PhotoFile($0) } }

    /// Every photo id's file, present or not, in id order.
    public var files: [PhotoFile] { catalog.entries.map { PhotoFile($0) } }

    /// The file of a photo id, opened only while it is the file the scan listed (the catalog's
    /// row now, so a file it no longer names is not opened).
    public func source(of file: PhotoFile) -> PhotoSource {
        guard let entry = catalog.entry(file.id), entry.path == file.path else {
            return PhotoSource(name: file.path) { throw ImagingError.io("\(file.path) is no longer where the catalog saw it") }
        }
        return catalog.source(of: entry)
    }

    /// Hashes a photo's file and reads its header now, if that was not done yet; the photo as it
    /// is then, or nil when it is not listed.
    @discardableResult
    public func examine(_ id: Int) -> Photo? { catalog.examine(id) }

    /// Where the built pyramid of a version lives.
    public func pyramidDirectory(_ version: String) -> String { catalog.pyramidDirectory(version) }

    /// One full scan on the caller's thread, for the commands that run without the server;
    /// `examines` false lists new files without reading them.
    public func scanOffline(examines: Bool) throws {
        try catalog.scan(.everything, options: PhotoCatalog.ScanOptions(examines: examines))
    }
}
