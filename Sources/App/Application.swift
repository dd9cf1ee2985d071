import Dispatch
import Foundation
import Comments
import HTTP
import Observability
import SQL
import Synchronization

/// The whole server: configuration in, routes wired, serving until SIGTERM or SIGINT.
public final class Application: Sendable {
    public let configuration: Configuration
    public let logger: Logger
    public let metrics = MetricsRegistry()
    /// Set when shutdown begins; the health probes then answer 503.
    public let draining = Draining()
    /// Where the catalog and the comments live: SQLite in the data folder, or PostgreSQL.
    public let databases: ApplicationDatabases
    let photos: PhotoService
    let comments: CommentService
    /// The running server, once `start()` has bound it.
    public var server: HTTPServer? { startedServer.withLock { $0 } }
    // A lock, not a plain var: the readiness routes read it while `start()` sets it.
    private let startedServer = Mutex<HTTPServer?>(nil)

    /// Opens the databases (an unreachable PostgreSQL stops the start here, naming the server),
    /// migrates them, and loads the catalog.
    public init(configuration: Configuration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        self.databases = databases
        do {
            let photos = try PhotoService(configuration: configuration, database: databases.catalog,
                                          logger: logger.labeled("library"), metrics: metrics)
            self.photos = photos
            let catalog = photos.library.catalog
            do {
                self.comments = try CommentService(configuration: configuration, database: databases.comments,
                                                   logger: logger.labeled("comments"), metrics: metrics,
                                                   photoExists: { photos.photoExists($0) },
                                                   identity: { id in
                                                       catalog.entry(id).map { PhotoIdentity(photoID: id, path: $0.path, contentHash: $0.contentHash) }
                                                   })
            } catch {
                photos.stop()
                throw error
            }
        } catch {
            databases.close()
            throw Self.startupError(error)
        }
        // Before anything is served: comments must still sit under the photos they were written for.
        if let map = comments.store as? any PhotoIdentityMap {
            do {
                try PhotoIdentityCheck.verify(map, catalog: photos.library.catalog.entries)
            } catch {
                comments.stop()
                photos.stop()
                databases.close()
                throw error
            }
        }
    }

    /// A database failure at start, in words that name the database.
    static func startupError(_ error: Error) -> Error {
        guard let error = error as? SQLError else { return error }
        return DatabaseStartupError("database: \(error.message)")
    }

    /// Every route of the application, static files last.
    public func makeRouter() -> Router {
        var router = Router()
        let comments = self.comments
        let photos = self.photos
        let draining = self.draining
        OperationsRoutes.register(on: &router, metrics: metrics, isReady: { photos.isReady },
                                  isDatabaseReachable: { comments.isReachable },
                                  isDraining: { draining.isDraining },
                                  workload: { [weak self] in self?.server?.workload ?? [] },
                                  saturation: { [weak self] in self?.server?.saturation ?? [] },
                                  degradation: { photos.degradation })
        photos.register(on: &router, commentCount: { comments.commentCount(photoID: $0) })
        comments.register(on: &router)
        StaticFiles(root: configuration.public).register(on: &router)
        return router
    }

    /// The HTTP server's settings derived from the application's.
    public var serverConfiguration: HTTPServerConfiguration {
        var limits = HTTPLimits()
        limits.maxConnections = configuration.maxConnections
        limits.headTimeoutSeconds = configuration.headerTimeoutSeconds
        limits.idleTimeoutSeconds = configuration.idleTimeoutSeconds
        limits.writeTimeoutSeconds = configuration.writeTimeoutSeconds
        limits.maxConnectionsPerAddress = configuration.maxConnectionsPerClient
        let cores = System.coreCount
        return HTTPServerConfiguration(
            host: configuration.host, port: configuration.port,
            eventLoops: configuration.eventLoops == 0 ? cores : configuration.eventLoops,
            workerThreads: configuration.workerThreads == 0 ? max(4, cores * 2) : configuration.workerThreads,
            limits: limits, lanes: WorkLanes.threads(configuration, cores: cores))
    }

    /// Binds, prints `listening on http://HOST:PORT` as the first line on stdout, and starts background work.
    public func start() throws {
        let server = HTTPServer(configuration: serverConfiguration, router: makeRouter(),
                                logger: logger.labeled("http"), observer: HTTPMetricsObserver(metrics: metrics))
        try server.start()
        startedServer.withLock { $0 = server }
        let shownHost = configuration.host == "0.0.0.0" ? "127.0.0.1" : configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        print("listening on http://\(shownHost):\(server.port)")
        fflush(nil) // every output stream: the C global `stdout` is not concurrency-safe
        photos.start()
        logger.info("serving", [("url", "http://\(shownHost):\(server.port)"), ("photos", String(photos.count)),
                                ("data", configuration.data)])
    }

    /// Stops accepting, lets in-flight requests finish, stops background work.
    public func stop() {
        draining.begin()
        server?.shutdown(graceSeconds: configuration.shutdownGraceSeconds)
        photos.stop()
        comments.stop()
        databases.close()
    }

    /// Starts, then blocks until SIGTERM or SIGINT has been handled; returns the exit code.
    /// The executable blocks those signals before any thread exists (`ShutdownSignals.block()`),
    /// so one that arrives while the server is still starting waits here instead of being lost.
    public func run() throws -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (ulimit -f) makes a write fail with EFBIG, handled like a full disk,
        // instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        ShutdownSignals.block()
        try start()
        let received = ShutdownSignals.wait()
        logger.info("shutting down", [("signal", ShutdownSignals.name(received)),
                                      ("graceSeconds", String(configuration.shutdownGraceSeconds))])
        stop()
        server?.wait()
        logger.info("stopped")
        return 0
    }
}
