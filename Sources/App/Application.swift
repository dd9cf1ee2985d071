import Access
import Comments
import Dispatch
import Foundation
import HTTP
import Library
import Observability
import POSIX
import SQL
import Search
import SearchIndex
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
    let uploads: UploadService
    let manage: ManageRoutes
    /// Keeps the search index current.
    let search: SearchIndexer
    /// Favourites, the trash and albums.
    let collection: any PhotoCollections
    /// Who may do what: the mode, accounts, sessions and share links.
    let access: AccessControl
    private let databaseService: DatabaseService
    private let accessService: AccessService
    private let collectionService: CollectionService
    private let commentService: CommentStoreService
    private let libraryService: LibraryService
    private let searchService: SearchService
    private let httpService: HTTPService
    private let libraryScans: LibraryScans
    private let housekeeping: Housekeeping
    private let group = Mutex<ServiceGroup?>(nil)
    /// The HTTP server, once started.
    public var server: HTTPServer? { httpService.server }

    /// Opens the databases (an unreachable PostgreSQL stops the start here, naming the server),
    /// migrates them, and loads the catalog.
    public convenience init(configuration: Configuration, logger: Logger) throws {
        try self.init(configuration: configuration, logger: logger, parts: Parts())
    }

    /// What tests put in place of the real thing: a renderer without libvips, clocks they move,
    /// cheap password hashes.
    struct Parts {
        var renderer: (any PhotoRendering)?
        /// Wall-clock unix seconds (sessions and links expire by it).
        var wallClock: @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }
        /// Monotonic seconds (how long checks are kept, throttles).
        var clock: @Sendable () -> Double = ClockSeconds.now
        var passwordParameters = PasswordHash.Parameters.passwords
    }

    init(configuration: Configuration, logger: Logger, parts: Parts) throws {
        self.configuration = configuration
        self.logger = logger
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        self.databases = databases
        do {
            let photos = if let renderer = parts.renderer {
                try PhotoService(configuration: configuration, database: databases.catalog, renderer: renderer,
                                 logger: logger.labeled("library"), metrics: metrics)
            } else {
                try PhotoService(configuration: configuration, database: databases.catalog,
                                 logger: logger.labeled("library"), metrics: metrics)
            }
            self.photos = photos
            let library = photos.library
            do {
                self.comments = try CommentService(configuration: configuration, database: databases.comments,
                                                   logger: logger.labeled("comments"), metrics: metrics,
                                                   photoExists: { photos.photoExists($0) },
                                                   identity: { id in
                                                       library.file(id).map { PhotoIdentity(photoID: id, path: $0.path, contentHash: $0.contentHash) }
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
        do {
            if let map = comments.store as? any PhotoIdentityMap {
                let library = photos.library
                try PhotoIdentityCheck.verify(map, row: { library.file($0) })
            }
            let photos = self.photos
            let collection = try PhotoLibrary.openCollections(database: databases.comments)
            self.collection = collection
            let store = try AccessStore(database: databases.access,
                                        limits: SessionLimits(idleSeconds: configuration.sessionIdleSeconds,
                                                              lifetimeSeconds: configuration.sessionLifetimeSeconds),
                                        passwordParameters: parts.passwordParameters, now: parts.wallClock)
            access = try AccessControl(settings: AccessControl.Settings(configuration), store: store, logger: logger.labeled("access"),
                                       isShared: { photos.isShared($0, $1, albums: collection) },
                                       throttle: FailureThrottle(now: parts.clock), now: parts.clock, wallNow: parts.wallClock)
            uploads = try UploadService(database: databases.comments, dataDirectory: configuration.data, library: photos.library,
                                        limits: UploadLimits(maxBytes: configuration.maxUploadMegabytes << 20,
                                                             expirySeconds: configuration.uploadExpirySeconds,
                                                             perClient: configuration.uploadsPerClient),
                                        clientAddress: ClientAddress(trustedProxies: configuration.trustedProxies),
                                        access: access, albums: collection, logger: logger.labeled("uploads"))
            let commentStore = comments.store
            let indexer = SearchIndexer(index: try SQLSearchIndex(database: databases.search), library: photos.library,
                                        comments: { id in
                                            // Counts are kept in memory; most photos have no comment to read.
                                            guard commentStore.count(photoID: id) > 0 else { return [] }
                                            return try commentStore.list(photoID: id, after: nil, limit: SearchIndexer.commentsPerPhoto).map(\.text)
                                        },
                                        albumTitles: { try collection.albumTitlesByPhoto() },
                                        places: PlaceNames(folder: configuration.placeNamesFolder, logger: logger.labeled("search")),
                                        logger: logger.labeled("search"))
            search = indexer
            // An album renamed, deleted, or given or losing photos: those photos are found by its title, or no longer.
            collection.observeAlbumChanges { indexer.queue($0) }
            manage = ManageRoutes(library: photos.library, store: collection, permission: uploads.permission,
                                  trashDays: configuration.trashDays, logger: logger.labeled("library"),
                                  now: { Int(Date().timeIntervalSince1970) })
        } catch {
            comments.stop()
            photos.stop()
            databases.close()
            throw Self.startupError(error)
        }
        databaseService = DatabaseService(databases)
        commentService = CommentStoreService(comments)
        accessService = AccessService(access)
        collectionService = CollectionService(collection)
        libraryService = LibraryService(photos, logger: logger.labeled("library"))
        searchService = SearchService(search, comments: comments.store)
        httpService = HTTPService(host: configuration.host, draining: draining)
        libraryScans = LibraryScans(photos)
        let (uploads, manage) = (self.uploads, self.manage)
        let backups = ScheduledBackups(databases: databases, dataDirectory: configuration.data, everyHours: configuration.backupEvery,
                                       keep: configuration.backupKeep, logger: logger.labeled("backups"))
        housekeeping = Housekeeping(atStart: [{ uploads.sweepLeftovers() }],
                                    [{ uploads.sweepExpired() }, { manage.sweepTrash() }, { backups.runIfDue() }])
        // The application outlives its server, which is made when the service starts.
        httpService.makeServer { [unowned self] in
            HTTPServer(configuration: serverConfiguration, router: makeRouter(),
                       logger: logger.labeled("http"), observer: HTTPMetricsObserver(metrics: metrics))
        }
    }

    /// A database failure at start, in words that name the database.
    static func startupError(_ error: Error) -> Error {
        guard let error = error as? SQLError else { return error }
        return DatabaseStartupError("database: \(error.message)")
    }

    /// Every route of the application; the static files under `/*path` answer what no other pattern takes.
    /// Every route has an access rule (`AccessControl`); the router refuses one without.
    public func makeRouter() -> Router {
        var router = Router(requiringAccessRules: true)
        router.allowedHosts = ServedHosts.allowed(configuration, logger: logger.labeled("http"))
        let comments = self.comments
        let photos = self.photos
        let draining = self.draining
        let search = self.search
        let rules = RouteRules(control: access)
        OperationsRoutes.register(on: &router, metrics: metrics, isReady: { photos.isReady },
                                  isDatabaseReachable: { comments.isReachable },
                                  isDraining: { draining.isDraining },
                                  workload: { [weak self] in self?.server?.workload ?? [] },
                                  saturation: { [weak self] in self?.server?.saturation ?? [] },
                                  degradation: { photos.degradation },
                                  progress: {
                                      let stages = [photos.ingestProgress, search.summary].compactMap { $0 }
                                      return stages.isEmpty ? nil : stages.joined(separator: " ")
                                  },
                                  probeAccess: rules(.open), metricsAccess: rules(.metrics))
        photos.register(on: &router, commentCount: { comments.commentCount(photoID: $0) }, rules: rules, albums: collection,
                        search: search)
        comments.register(on: &router, rules: rules)
        SessionRoutes(control: access).register(on: &router)
        ShareRoutes(control: access, library: photos.library, albums: collection).register(on: &router)
        UploadRoutes(service: uploads, rules: rules, control: access).register(on: &router)
        manage.register(on: &router, rules: rules)
        // The page, and its files: they hold nothing of the library, and show the sign-in view
        // to whoever is not signed in. The setup link and share links open the same page.
        let page = StaticFiles(root: configuration.public)
        page.register(on: &router, access: rules(.open))
        page.register("/setup", serving: "index.html", on: &router, access: rules(.open))
        page.register("/s/:token", serving: "index.html", on: &router, access: rules(.open))
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
            limits: limits, lanes: WorkLanes.threads(configuration, cores: cores), laneBudgets: WorkLanes.budgets(configuration))
    }

    /// The services in start order; shutdown takes them in reverse (`ServiceGroup`). Each may use
    /// the ones before it while it runs and while it stops, so the stores outlive everything that
    /// writes them.
    public var services: [any Service] {
        [databaseService, commentService, accessService, collectionService, libraryService, housekeeping, httpService, libraryScans, searchService]
    }

    /// Binds, prints `listening on http://HOST:PORT` as the first line on stdout, and starts background work.
    public func start() throws {
        _ = try start(trigger: ShutdownTrigger())
    }

    private func start(trigger: ShutdownTrigger) throws -> ServiceGroup {
        let group = ServiceGroup(services, gracePeriod: .seconds(double: configuration.shutdownGraceSeconds),
                                 trigger: trigger, logger: logger)
        self.group.withLock { $0 = group }
        try group.start()
        logger.info("serving", [("url", httpService.url ?? ""), ("photos", String(photos.count)),
                                ("data", configuration.data), ("access", access.mode.rawValue)])
        announceSetup()
        for caution in configuration.cautions { logger.warning(caution) }
        if let folder = Self.folderWithoutThePage(configuration.public) {
            // Started away from the checkout, `Public` names nothing: the API works, `/` is a 404.
            logger.warning("the web page cannot be served: the public folder has no index.html; set \"public\" in the "
                + "configuration or pass --public with the folder that holds it (Public in a checkout)", [("public", folder)])
        }
        return group
    }

    /// With no owner yet, logs a one-time link that makes one (as Jupyter prints its token): whoever
    /// holds the log makes the owner in the page. There is never a default password.
    private func announceSetup() {
        do {
            guard try !access.store.hasOwner() else { return }
            let token = try access.store.makeSetupToken()
            let base = configuration.publicURL.isEmpty ? httpService.url ?? "" : configuration.publicURL
            logger.warning("this server has no owner yet: open the setup link to make one (it works once; "
                + "or run photoscroll users add NAME --owner)", [("url", base + "/setup?token=" + token)])
        } catch {
            logger.error("cannot make a setup link", [("error", String(describing: error))])
        }
    }

    /// The public folder, made absolute, when it holds no `index.html`; nil when it does.
    static func folderWithoutThePage(_ folder: String) -> String? {
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        let hasPage = FileManager.default.fileExists(atPath: absolute + "/index.html", isDirectory: &isDirectory) && !isDirectory.boolValue
        return hasPage ? nil : absolute
    }

    /// Stops accepting, lets in-flight requests finish, stops background work, closes the stores:
    /// the services in reverse order. Before `start`, the services still hold what `init` opened,
    /// and every one is shut down.
    public func stop() {
        if let group = group.withLock({ $0 }) {
            group.shutDown()
        } else {
            for service in services.reversed() { service.shutDown(deadline: .now) }
        }
    }

    /// Starts, then blocks until SIGTERM or SIGINT (or a service failing) has been handled;
    /// returns the exit code, 1 when a service failed.
    /// The executable blocks those signals before any thread exists (`ShutdownSignals.block()`),
    /// so one that arrives while the server is still starting waits here instead of being lost.
    public func run() throws -> Int32 {
        Signals.ignoreBrokenPipe()
        // A file-size limit (ulimit -f) makes a write fail with EFBIG, handled like a full disk,
        // instead of killing the process.
        Signals.ignoreFileSizeLimit()
        let trigger = ShutdownTrigger.signals()
        let group = try start(trigger: trigger)
        let reason = trigger.wait()
        let why: (String, String) = if case .signal(let signal) = reason { ("signal", ShutdownSignals.name(signal)) } else { ("reason", reason.description) }
        logger.info("shutting down", [why, ("graceSeconds", String(configuration.shutdownGraceSeconds))])
        group.shutDown()
        logger.info("stopped")
        if case .failed = reason { return 1 }
        return 0
    }
}
