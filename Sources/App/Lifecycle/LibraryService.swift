import Observability

/// The library's background work: scans, the folder watcher, the ingest workers, and the photo
/// live streams. Shutting down drops queued builds and joins the ingest threads once their
/// running builds end (libvips cannot be interrupted), or gives up on them at the deadline.
/// Nothing starts here: the scans start from `LibraryScans`, after the HTTP server has printed
/// its address.
final class LibraryService: Service {
    let name = "library"
    private let photos: PhotoService
    private let logger: Logger

    init(_ photos: PhotoService, logger: Logger) {
        self.photos = photos
        self.logger = logger
    }

    func shutDown(deadline: ContinuousClock.Instant) {
        photos.stop()
        if !photos.library.joinIngest(deadline: deadline) {
            logger.warning("ingest threads still building (or reading photo details) at the end of the grace period; exiting without them")
        }
    }
}
