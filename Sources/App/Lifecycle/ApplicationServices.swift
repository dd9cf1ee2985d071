import Access
import Foundation
import HTTP
import Library
import Observability
import POSIX
import Synchronization

// The application's services, in the order `Application` starts them: each may use the ones
// before it while it runs and while it stops, so the stores outlive everything that writes them.

/// The catalog and comment databases, opened (and migrated) by `Application.init`; closed last.
final class DatabaseService: Service {
    let name = "databases"
    private let databases: ApplicationDatabases

    init(_ databases: ApplicationDatabases) { self.databases = databases }

    func shutDown(deadline: ContinuousClock.Instant) { databases.close() }
}

/// The comment store and its live streams. Closing the store commits every comment already
/// acknowledged (the HTTP server, stopped before it, answers no new ones).
final class CommentStoreService: Service {
    let name = "comments"
    private let comments: CommentService

    init(_ comments: CommentService) { self.comments = comments }

    func shutDown(deadline: ContinuousClock.Instant) { comments.stop() }
}

/// Hears the changes that end sessions and share links (from every replica), so what is kept
/// of them in memory is dropped at once; stopped before the databases close.
final class AccessService: Service {
    let name = "access"
    private let access: AccessControl

    init(_ access: AccessControl) { self.access = access }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws { try access.start() }

    func shutDown(deadline: ContinuousClock.Instant) { access.stop() }
}

/// Hears the changes to albums, favourites and the trash (from every replica on the database),
/// which open views follow live; stopped before the databases close.
final class CollectionService: Service {
    let name = "collections"
    private let collection: CollectionStore

    init(_ collection: CollectionStore) { self.collection = collection }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws { try collection.startHearing() }

    func shutDown(deadline: ContinuousClock.Instant) { collection.stopHearing() }
}

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

/// The HTTP server: binds and prints `listening on http://HOST:PORT` as the first line on stdout
/// when it starts; when it stops, turns the probes to 503, stops accepting, lets in-flight
/// requests finish until the deadline, and joins its loop and worker threads. Every answered
/// request's access-log line is written before the loops end.
final class HTTPService: Service {
    let name = "http"
    private let factory = Mutex<(@Sendable () -> HTTPServer)?>(nil)
    private let draining: Draining
    private let host: String
    private let current = Mutex<HTTPServer?>(nil)

    init(host: String, draining: Draining) {
        self.host = host
        self.draining = draining
    }

    /// How `start` makes the server (its router needs the whole application).
    func makeServer(_ make: @escaping @Sendable () -> HTTPServer) { factory.withLock { $0 = make } }

    /// The running server, or nil before start.
    var server: HTTPServer? { current.withLock { $0 } }

    /// `http://127.0.0.1:8080`: where the server answers, loopback when it listens everywhere.
    var url: String? {
        guard let server else { return nil }
        let shown = host == "0.0.0.0" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(server.port)"
    }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws {
        guard let make = factory.withLock({ $0 }) else { preconditionFailure("HTTPService started before makeServer") }
        let server = make()
        try server.start()
        current.withLock { $0 = server }
        print("listening on \(url!)")
        System.flushOutputStreams()
    }

    func shutDown(deadline: ContinuousClock.Instant) {
        draining.begin()
        server?.shutdown(deadline: deadline)
    }
}

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
