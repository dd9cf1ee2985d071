import Imaging

/// What runs and looks after the library: its start and stop, scans, the ingest and its
/// progress, health for /readyz, pyramids built on the caller's thread, and the catalog's files
/// as values (the start's check of comments, `check`, `export`, `ingest`, `reattach-comments`).
///
/// Who administers reads too (a role above browsing). The lifecycle's services, the photo
/// service's readiness and the maintenance commands take this role. `PhotoLibrary` is the one
/// conformer.
public protocol LibraryAdministering: PhotoBrowsing {
    /// The settings the library was opened with.
    var configuration: LibraryConfiguration { get }
    /// Starts the background scans; returns at once.
    func start()
    /// Stops scanning and ingest; running builds finish in the background.
    func stop()
    /// After `stop`: waits until the ingest threads have ended, or until `deadline`; true when they have.
    @discardableResult
    func joinIngest(deadline: ContinuousClock.Instant) -> Bool
    /// Folders of photos that could not be reached, if any.
    var health: LibraryHealth { get }
    /// Why changes to the folder are found by rescans although watching was asked for; nil while watched.
    var watchStatus: String? { get }
    /// How far each stage of the ingest is.
    var stages: IngestStages { get }
    /// One full scan on the caller's thread, for the commands that run without the server.
    func scanOffline(examines: Bool) throws
    /// Builds the photo's pyramid now, in the calling thread, under its build claim.
    func buildClaimed(_ photo: Photo) -> PhotoLibrary.ClaimedBuild
    /// Builds the photo's pyramid now, in the calling thread; the error text on failure.
    @discardableResult
    func buildPyramid(_ photo: Photo) -> String?
    /// Hashes a photo's file and reads its header now, if that was not done yet.
    @discardableResult
    func examine(_ id: Int) -> Photo?
    /// Where the built pyramid of a version lives.
    func pyramidDirectory(_ version: String) -> String
    /// The photos folder, read only through its confined opener.
    var folder: PhotoFolder { get }
    /// The file of a photo id, listed or not.
    func file(_ id: Int) -> PhotoFile?
    /// Every photo id's file, present or not, in id order.
    var files: [PhotoFile] { get }
    /// The file of a photo id, opened only while it is the file the scan listed.
    func source(of file: PhotoFile) -> PhotoSource
}
