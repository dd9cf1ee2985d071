/// What changes the photos folder: moves and copies between folders, the trash and its
/// restores, folders made, renamed and removed (`writer`), and photos added by uploads.
///
/// Who manages reads too (a role above browsing). The management routes and the upload service
/// take this role. `PhotoLibrary` is the one conformer; favourites and albums are the
/// collections' (`PhotoCollections`).
public protocol PhotoManaging: PhotoBrowsing {
    /// Writes to the photos folder without following a link on the way.
    var writer: PhotoFolderWriter { get }
    /// The photos folder, read only through its confined opener.
    var folder: PhotoFolder { get }
    /// Moves photos into a folder (relative, "" for the root), keeping their ids.
    func move(_ ids: [Int], toFolder folder: String) throws -> [PlacedPhoto]
    /// Copies photos into a folder; the copies are new photos.
    func copy(_ ids: [Int], toFolder folder: String) throws -> [PlacedPhoto]
    /// Moves photos to the trash, recorded in `store`, as one batch.
    func trash(_ ids: [Int], store: any PhotoCollections, now: Int) throws -> [TrashItem]
    /// Puts trashed photos back where they were (or beside, when the name is taken).
    func restore(_ items: [TrashItem], store: any PhotoCollections) throws -> [PlacedPhoto]
    /// Deletes trashed photos for good; how many were.
    @discardableResult
    func purge(_ items: [TrashItem], store: any PhotoCollections) throws -> Int
    /// Scans `scope` now, waiting up to `patience` for a scan already running; false when it could not.
    @discardableResult
    func rescanNow(_ scope: ScanScope, patience: Duration) -> Bool
    /// Lists a file just placed in the folder now; the photo, or nil.
    func addNow(_ relativePath: String, patience: Duration) -> Photo?
    /// What an upload waiting to be added is: its header read, or the reason it is no photo.
    func inspectAddition(_ path: String) throws -> AddedPhotoHeader
    /// A present photo with these bytes and size, or nil.
    func photo(withContent hashes: ContentHash.FileHashes, size: Int) -> Photo?
}
