/// Starts the library's scans, last: `listening on …` stays the first line the process prints
/// (scripts wait for it), as the scans log from their own thread. Stopping them is `LibraryService`'s
/// part, after the HTTP server has finished its requests.
final class LibraryScans: Service {
    let name = "library-scans"
    private let photos: PhotoService

    init(_ photos: PhotoService) { self.photos = photos }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws { photos.start() }

    func shutDown(deadline: ContinuousClock.Instant) {}
}
