import FolderScan
import Foundation
import Imaging
import Observability
import POSIX
import SQL
import Synchronization

/// The photo library: catalog, background scans and ingest, and the tile and thumbnail caches.
///
/// It answers from the moment it is made (the stored catalog is loaded first); `start()` then
/// lists the folder in the background (ready as soon as the listing exists), watches it for
/// changes, examines and builds what needs it, and rescans in full every `rescanSeconds`.
///
/// Callers take it by what they do (`PhotoBrowsing`, `ImageServing`, `PhotoManaging`,
/// `LibraryAdministering`); only the composition roots hold the class itself.
public final class PhotoLibrary: Sendable, MetricsCollector, PhotoBrowsing, ImageServing, PhotoManaging, LibraryAdministering {
    public let configuration: LibraryConfiguration
    let catalog: PhotoCatalog
    let cache: TileCache
    let renderer: any PhotoRendering
    let logger: Logger
    let metrics: LibraryMetrics
    let ingest: IngestQueue
    let onDemand = OnDemandGate()
    /// What is rendered before a pyramid: kept on disk, taken over by the build.
    let early: EarlyTiles
    /// Renders on demand in flight, by photo version and what they make.
    let earlyRenders = SingleFlight<EarlyRenderKey, Bool>()
    /// Rows of tiles rendered while their version's build runs (`renderBesideBuild`), each once
    /// for the requests that want any of it.
    let rowsBesideBuild = SingleFlight<EarlyRenderKey, [TileCoordinate: [UInt8]]>()
    /// Renders on demand and builds of one version take turns, so no tile is made twice.
    let work = VersionWork()
    /// Versions whose first stage (thumbnail and low levels) is done, for the stages' progress.
    let firstStageDone = Mutex<Set<String>>([])
    let progress: Mutex<IngestProgressLog>
    /// Builds waiting to be tried again after a failure that was not the file's.
    let retries = BuildRetries()
    /// Where the claims every process on this catalog shares live (one scanner at a time, one
    /// builder per pyramid): the catalog's database, or nil for a store of its own (tests).
    let claims: SQLDatabase?
    /// Versions whose build claim a job of this process holds.
    let localBuildClaims = Mutex<Set<String>>([])

    struct Loop {
        var started = false
        var stopped = false
        var ready = false
        /// What the watcher reported and no scan has looked at yet, and since when.
        var pending = ScanScope()
        var pendingSince: ContinuousClock.Instant?
        var fullScanRequested = false
        /// Folders with files still being written, and when to look again (wall clock, ns).
        var unsettled: Set<String> = []
        var settlesAt: Int?
        var watcher: FolderWatcher?
        /// Watching failed because the photos folder was not there: try again once it is.
        var watchRetry = false
        /// Why changes are not watched although the configuration wants them to be (the watch
        /// limit reached, no inotify), so rescans find them: for /readyz and the log.
        var watchProblem: String?
        /// The watcher ran out of watches for a new folder: to be dropped by the loop.
        var watchLimitReached: String?
        var lastWatchAttempt: ContinuousClock.Instant?
        /// What the last full scan passed over (links out, loops, FIFOs…), said in the log when it changes.
        var skipped: [FolderListing.Skipped: Int] = [:]
        var lastGarbageCollection: ContinuousClock.Instant?
        /// Another process said the catalog changed: read it again soon (at most every
        /// `reloadSpacing`, however many builds finish meanwhile).
        var reloadRequested = false
        var lastReload: ContinuousClock.Instant?
        /// The last scan was another process's (its claim was held): read the store before scanning.
        var scannedElsewhere = false
        var listener: SQLListener?
    }
    let loop = Mutex(Loop())
    let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Opens the catalog and the caches. The catalog is `database`'s (PostgreSQL shared by
    /// replicas, or a SQLite file), else `<data>/catalog.sqlite`'s.
    public convenience init(configuration: LibraryConfiguration, database: SQLDatabase? = nil,
                            renderer: (any PhotoRendering)? = nil, logger: Logger, metrics: MetricsRegistry) throws {
        try self.init(configuration: configuration, database: database, store: nil, renderer: renderer, logger: logger, metrics: metrics)
    }

    /// As above, or over a store of its own (`store`, when `database` is nil: tests).
    init(configuration: LibraryConfiguration, database: SQLDatabase? = nil, store: (any CatalogStore)?,
         renderer: (any PhotoRendering)? = nil, logger: Logger, metrics: MetricsRegistry) throws {
        let registry = metrics
        self.configuration = configuration
        try FileManager.default.createDirectory(atPath: configuration.tilesDirectory, withIntermediateDirectories: true)
        // Half-built pyramids of a build that crashed are of no use to anyone.
        BuildLock.removeLeftovers(in: configuration.tilesDirectory, logger: logger)
        if configuration.makesDemo {
            try FileManager.default.createDirectory(atPath: configuration.photosDirectory, withIntermediateDirectories: true)
        } else if !FileManager.default.fileExists(atPath: configuration.photosDirectory) {
            // Not fatal: the folder may be a mount that appears later; scans pick it up then.
            logger.warning("the photos folder does not exist", [("path", configuration.photosDirectory)])
        }
        let renderer = renderer ?? VipsPhotoRendering(settings: configuration.settings)
        let catalogStore: any CatalogStore
        if let database {
            catalogStore = try SQLCatalogStore(database: database)
            claims = database
        } else if let store {
            catalogStore = store
            claims = nil
        } else {
            let opened = try SQLCatalogStore(path: configuration.catalogPath)
            catalogStore = opened
            claims = opened.database
        }
        self.renderer = renderer
        self.logger = logger
        early = EarlyTiles(tilesDirectory: configuration.tilesDirectory)
        let metrics = LibraryMetrics(metrics)
        self.metrics = metrics
        self.cache = TileCache(capacityBytes: configuration.tileCacheBytes)
        self.catalog = try PhotoCatalog(folder: PhotoFolder(root: configuration.photosDirectory, extraRoots: configuration.extraRoots),
                                        tilesDirectory: configuration.tilesDirectory, settings: configuration.settings,
                                        store: catalogStore, renderer: renderer, logger: logger)
        self.progress = Mutex(IngestProgressLog())
        // The queue calls back into the library; a box breaks the init-order cycle.
        let box = WeakBox()
        let gate = onDemand
        self.ingest = IngestQueue(concurrency: configuration.ingestConcurrency,
                                  onLengthChange: { metrics.queueLength.set(Double($0)) },
                                  yield: { gate.waitForQuiet() },
                                  work: { job in box.library?.run(job) })
        box.library = self
        metrics.record(catalog)
        // A stored listing is a listing: a restart is ready at once, and the scan runs behind it.
        if catalog.count > 0 { loop.withLock { $0.ready = true } }
        // Cache hits are counted by the cache and added to the metrics when they are read.
        registry.addCollector(self)
    }

    /// The library for the queue's work, which is made before the library is: set once in
    /// `init`, before the queue can run a job that reads it.
    private final class WeakBox: Sendable {
        private struct Reference { weak var library: PhotoLibrary? }
        private let reference = Mutex(Reference())

        var library: PhotoLibrary? {
            get { reference.withLock { $0.library } }
            set { reference.withLock { $0.library = newValue } }
        }
    }

    /// Every listed photo in id order.
    public var photos: [Photo] { catalog.photos }

    /// One photo, or nil.
    public func photo(_ id: Int) -> Photo? { catalog.photo(id) }

    /// The date keys (`Photo.takenKey`) of photos by id, nil for one not listed.
    public func takenKeys(_ ids: [Int]) -> [Int64?] { catalog.takenKeys(ids) }

    /// The version, size and status of one photo, or nil: the start of every image request.
    public func imageInfo(_ id: Int) -> PhotoImageInfo? { catalog.imageInfo(id) }

    /// True once a listing exists: the stored catalog had one, or the first scan made it.
    public var isReady: Bool { loop.withLock { $0.ready } }

    /// Returns once no tile has been rendered for a viewer for a moment (at most a few seconds):
    /// other background work (the search index) waits here between its steps, as the ingest does.
    public func waitForViewersToSettle() { onDemand.waitForQuiet() }

    /// Folders of photos that could not be reached, if any.
    public var health: LibraryHealth { catalog.health }

    /// Whether the folder is watched for changes (false: timed full rescans only).
    var isWatching: Bool { loop.withLock { $0.watcher != nil } }

    /// Why changes to the folder are found by rescans although watching was asked for, in a
    /// sentence for /readyz; nil while it is watched (or watching is off by configuration).
    public var watchStatus: String? {
        guard let problem = loop.withLock({ $0.watcher == nil ? $0.watchProblem : nil }) else { return nil }
        return "Changes to the photos folder are not watched (\(problem)); a full rescan finds them every \(Self.spell(unwatchedRescanSeconds)) s."
    }

    /// How often the folder is scanned in full while it cannot be watched: `rescanSeconds`, but
    /// at least every `unwatchedRescanSeconds`.
    var unwatchedRescanSeconds: Double {
        configuration.rescanSeconds > 0 ? min(configuration.rescanSeconds, configuration.unwatchedRescanSeconds)
            : configuration.unwatchedRescanSeconds
    }

    static func spell(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }

    /// Starts the background scans (after making the demo photos when configured); returns at once.
    public func start() {
        let first = loop.withLock { loop -> Bool in
            defer { loop.started = true }
            return !loop.started
        }
        guard first else { return }
        let thread = Thread { [self] in self.run() }
        thread.name = "library-scan"
        thread.start()
    }

    /// Stops scanning and ingest; running builds finish in the background.
    public func stop() {
        let (wasRunning, watcher) = loop.withLock { loop -> (Bool, FolderWatcher?) in
            defer {
                loop.stopped = true
                loop.watcher = nil
            }
            return (loop.started && !loop.stopped, loop.watcher)
        }
        ingest.stop()
        watcher?.stop()
        loop.withLock { loop in
            defer { loop.listener = nil }
            return loop.listener
        }?.stop()
        guard wasRunning else { return }
        wake.signal()
        _ = finished.wait(timeout: .now() + 5)
    }

    /// After `stop`: waits until the ingest threads and a pass reading photo details have ended,
    /// or until `deadline`; true when they have.
    @discardableResult
    public func joinIngest(deadline: ContinuousClock.Instant) -> Bool {
        let ingestEnded = ingest.join(deadline: deadline)
        return catalog.waitForHeaderPass(until: deadline) && ingestEnded
    }

    /// Asks the background loop for a full scan now instead of at the next interval.
    public func requestRescan() {
        loop.withLock { $0.fullScanRequested = true }
        wake.signal()
    }

    var isStopping: Bool { loop.withLock { $0.stopped } }

    private func run() {
        defer { finished.signal() }
        // Scans keep the normal priority: the first listing is what /readyz waits for, and later
        // ones are short. Only the ingest and the watcher yield to request threads.
        if configuration.makesDemo {
            // Drawn beside the scans: each photo is listed as soon as it lands, in name order.
            let demo = Thread { [self] in
                DemoLibrary(directory: configuration.photosDirectory, logger: logger)
                    .make(isStopped: { [self] in self.isStopping }, onPhoto: { [self] in self.requestRescan() })
            }
            demo.name = "demo-photos"
            demo.start()
        }
        listenForOtherProcesses()
        // Watching starts before the first scan, so nothing that changes during it is missed.
        startWatching()
        scanInBackground(.everything)
        settleFirstListing()
        loop.withLock { $0.ready = true }
        var lastFull = ContinuousClock.now
        while !isStopping {
            if let deadline = nextDeadline(lastFull: lastFull) { _ = wake.wait(timeout: deadline.dispatchTime) } else { wake.wait() }
            if isStopping { break }
            let work = takeWork(lastFull: lastFull)
            if work.reload { reloadFromStore() }
            if let reason = loop.withLock({ loop -> String? in
                defer { loop.watchLimitReached = nil }
                return loop.watchLimitReached
            }) {
                dropWatcher(reason)
            }
            if work.full {
                if shouldTryWatching() { startWatching() }
                scanInBackground(.everything)
                lastFull = .now
            } else if let scope = work.partial {
                scanInBackground(scope)
            } else if work.checkHealth && healthChanged() {
                // A folder that came back is new to the kernel: watch the tree afresh.
                let old = loop.withLock { loop -> FolderWatcher? in
                    defer { loop.watcher = nil }
                    return loop.watcher
                }
                old?.stop()
                startWatching()
                scanInBackground(.everything)
                lastFull = .now
            }
        }
    }

    /// Files written just before the start are waited for (up to 10 s), so that once ready the
    /// listing holds everything that was there at the start.
    private func settleFirstListing() {
        let deadline = ContinuousClock.now + .seconds(10)
        while !isStopping && ContinuousClock.now < deadline {
            let (folders, settles) = loop.withLock { loop -> (Set<String>, Int?) in
                defer {
                    loop.unsettled = []
                    loop.settlesAt = nil
                }
                return (loop.unsettled, loop.settlesAt)
            }
            guard let settles, !folders.isEmpty else { return }
            let settled = ContinuousClock.now + Self.untilSettled(settles)
            _ = wake.wait(timeout: settled.dispatchTime) // a wake-up's work is in `loop`, for the main loop
            scanInBackground(ScanScope(directories: folders))
        }
    }

    /// While something cannot be reached, or changes cannot be watched, this often the folders
    /// that matter are looked at (a `stat` or two, not a scan).
    static let healthCheckInterval: Duration = .seconds(5)
    /// Events are gathered this long before a scan, so a copy of many files is one scan, not many.
    static let eventDelay: Duration = .milliseconds(250)

    /// How long until files last written at `settlesAt` (wall clock, ns, as file times are) have
    /// settled, and a moment more.
    private static func untilSettled(_ settlesAt: Int) -> Duration {
        .nanoseconds(max(0, settlesAt - PhotoCatalog.wallClock())) + .milliseconds(50)
    }

    private func nextDeadline(lastFull: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let degraded = catalog.health.isDegraded
        let now = ContinuousClock.now
        return loop.withLock { loop in
            var deadline: ContinuousClock.Instant?
            func consider(_ time: ContinuousClock.Instant) { deadline = min(deadline ?? time, time) }
            if loop.fullScanRequested { consider(now) }
            if loop.reloadRequested { consider(loop.lastReload.map { max(now, $0 + Self.reloadSpacing) } ?? now) }
            if let every = rescanInterval(loop) { consider(lastFull + .seconds(double: every)) }
            if loop.watchLimitReached != nil { consider(now) }
            if let since = loop.pendingSince { consider(since + Self.eventDelay) }
            if let settles = loop.settlesAt { consider(now + Self.untilSettled(settles)) }
            if degraded || loop.watchRetry { consider(now + Self.healthCheckInterval) }
            return deadline
        }
    }

    private func takeWork(lastFull: ContinuousClock.Instant) -> (full: Bool, partial: ScanScope?, checkHealth: Bool, reload: Bool) {
        let now = ContinuousClock.now
        let wall = PhotoCatalog.wallClock()
        return loop.withLock { loop in
            let reload = loop.reloadRequested && (loop.lastReload.map { now >= $0 + Self.reloadSpacing } ?? true)
            if reload {
                loop.reloadRequested = false
                loop.lastReload = now
            }
            let timed = rescanInterval(loop).map { now >= lastFull + .seconds(double: $0) } ?? false
            if loop.fullScanRequested || timed {
                loop.fullScanRequested = false
                loop.pending = ScanScope()
                loop.pendingSince = nil
                loop.unsettled = []
                loop.settlesAt = nil
                return (true, nil, false, false)
            }
            var scope = ScanScope()
            if let since = loop.pendingSince, now >= since + Self.eventDelay {
                scope = loop.pending
                loop.pending = ScanScope()
                loop.pendingSince = nil
            }
            if let settles = loop.settlesAt, wall >= settles {
                scope.directories.formUnion(loop.unsettled)
                loop.unsettled = []
                loop.settlesAt = nil
            }
            return (false, scope.isEmpty ? nil : scope, true, reload)
        }
    }

    /// Seconds between full scans now: `rescanSeconds`, or more often while changes that should
    /// be watched cannot be; nil for never.
    private func rescanInterval(_ loop: Loop) -> Double? {
        if configuration.watchesFolder && loop.watcher == nil && loop.watchProblem != nil { return unwatchedRescanSeconds }
        return configuration.rescanSeconds > 0 ? configuration.rescanSeconds : nil
    }

    /// Whether a full scan should try to watch the folder first: when it is not watched, but
    /// after running out of watches only every `watchRetrySeconds` (walking a tree that large
    /// to fail again is not worth it every minute).
    private func shouldTryWatching() -> Bool {
        loop.withLock { loop in
            guard loop.watcher == nil else { return false }
            guard loop.watchProblem != nil, !loop.watchRetry, let last = loop.lastWatchAttempt else { return true }
            return ContinuousClock.now >= last + .seconds(double: configuration.watchRetrySeconds)
        }
    }

    /// The watcher ran out of watches for a new folder: it is dropped (with all its watches,
    /// which other programs may need) and rescans take over.
    private func dropWatcher(_ reason: String) {
        logger.warning("stopped watching the photos folder; changes are found by a full rescan every \(Self.spell(unwatchedRescanSeconds)) s",
                       [("reason", reason)])
        let watcher = loop.withLock { loop -> FolderWatcher? in
            defer {
                loop.watcher = nil
                loop.watchProblem = reason
            }
            return loop.watcher
        }
        watcher?.stop()
        metrics.watchedFolders.set(0)
    }

    /// Starts the watcher when configured and possible, saying in the log when it is not.
    private func startWatching() {
        guard configuration.watchesFolder else { return }
        loop.withLock { $0.lastWatchAttempt = .now }
        let watcher = FolderWatcher(folder: catalog.folder, logger: logger, maxWatches: configuration.maxWatchedFolders) { [weak self] outcome in
            self?.watched(outcome)
        }
        do {
            try watcher.start()
            let count = watcher.watchCount
            let wasProblem = loop.withLock { loop -> String? in
                defer {
                    loop.watcher = watcher
                    loop.watchRetry = false
                    loop.watchProblem = nil
                }
                return loop.watchProblem
            }
            if wasProblem != nil { logger.info("watching the photos folder again") }
            metrics.watchedFolders.set(Double(count))
            logger.info("watching the photos folder for changes", [("folders", String(count)),
                                                                    ("fullRescanSeconds", String(Int(configuration.rescanSeconds)))])
        } catch {
            watcher.stop()
            metrics.watchedFolders.set(0)
            let retry = (error as? FolderWatcher.Unavailable)?.retryable ?? false
            let first = loop.withLock { loop -> Bool in
                defer {
                    loop.watchRetry = retry
                    // A folder not there yet is the health check's to watch for, not a fallback.
                    loop.watchProblem = retry ? nil : "\(error)"
                }
                return !loop.watchRetry && loop.watchProblem != "\(error)"
            }
            guard first else { return }
            let every = retry ? (configuration.rescanSeconds > 0 ? "a full rescan every \(Int(configuration.rescanSeconds)) s (rescanSeconds)" : "none (rescanSeconds is 0)")
                : "a full rescan every \(Self.spell(unwatchedRescanSeconds)) s"
            logger.warning("cannot watch the photos folder; changes are found only by \(every)", [("reason", "\(error)")])
        }
    }

    /// A batch from the watcher: a full scan, or a partial one soon.
    private func watched(_ outcome: WatchOutcome) {
        loop.withLock { loop in
            if let reason = outcome.limitReached { loop.watchLimitReached = reason }
            if outcome.needsFullScan {
                loop.fullScanRequested = true
            } else {
                loop.pending.formUnion(outcome.scope)
                if loop.pendingSince == nil { loop.pendingSince = .now }
            }
        }
        if outcome.needsFullScan {
            logger.info("the photos folder changed more than the watcher could follow; scanning it in full")
        }
        wake.signal()
    }

    /// Whether a folder that could not be reached (or the photos folder, when unwatched) looks
    /// different now: then a full scan is worth it.
    private func healthChanged() -> Bool {
        for folder in catalog.health.unreachable.keys where hasEntries(folder) { return true }
        return loop.withLock { $0.watchRetry } && hasEntries("")
    }

    /// Whether a folder (relative) can be read and holds something not hidden.
    private func hasEntries(_ relative: String) -> Bool {
        guard let opened = try? catalog.folder.confinement.openDirectory(relative) else { return false }
        defer { opened.descriptor.close() }
        var found = false
        try? opened.descriptor.forEachEntry { entry in
            found = !entry.isHidden
            return !found
        }
        return found
    }

    /// One scan by the background loop: listed only (examined later), files still being written
    /// left for later; then builds queued and stale tiles collected.
    private func scanInBackground(_ scope: ScanScope) {
        var options = PhotoCatalog.ScanOptions(examines: false, settleNanoseconds: Int(configuration.settleSeconds * 1e9),
                                               graceNanoseconds: Int(configuration.missingGraceSeconds * 1e9))
        options.settledFiles = scope.closedFiles
        scan(scope, options: options)
    }

    /// One scan, then queue what needs building and collect stale tiles. Also usable without
    /// `start()`: every new or changed file is examined before it returns, and the listing it
    /// made is one (`isReady`).
    func refresh() {
        scan(.everything, options: PhotoCatalog.ScanOptions(graceNanoseconds: Int(configuration.missingGraceSeconds * 1e9)))
        loop.withLock { $0.ready = true }
    }

    /// One scanner at a time among the processes on this catalog: a scan first takes the scan
    /// claim; when another process holds it, this one reads what that one wrote instead.
    static let scanClaim = SQLLockKey("catalog-scan", 0)
    /// Where processes on one shared catalog say that it changed; the payload names the sender.
    static let changeChannel = "photoscroll_catalog"
    /// Names this process in its change notifications, so it does not reload after its own.
    static let processToken = UUID().uuidString
    /// Reloads after other replicas' changes are at least this far apart.
    static let reloadSpacing: Duration = .milliseconds(500)

    @discardableResult
    func scan(_ scope: ScanScope, options: PhotoCatalog.ScanOptions) -> PhotoCatalog.ScanResult? {
        let kind = scope.isEverything ? "full" : "partial"
        let started = ContinuousClock.now
        let wasDegraded = catalog.health
        var outcome: PhotoCatalog.ScanResult?
        var claim: SQLAdvisoryLock?
        if let claims {
            do {
                claim = try claims.tryLock(Self.scanClaim)
            } catch {
                logger.warning("cannot take the scan claim; the folder is scanned later", [("error", "\(error)")])
                return nil
            }
            guard claim != nil else {
                loop.withLock { $0.scannedElsewhere = true }
                reloadFromStore()
                return nil
            }
        }
        defer { claim?.release() }
        do {
            // Rows other processes wrote (their scans, examinations) come first, so this scan
            // neither adds what they added nor writes back what they changed.
            if loop.withLock({ $0.scannedElsewhere }) || claims?.engine == .postgres {
                try catalog.reload()
                loop.withLock { $0.scannedElsewhere = false }
            }
            let result = try catalog.scan(scope, options: options)
            if !(result.added.isEmpty && result.changed.isEmpty && result.removed.isEmpty) { announceChange() }
            outcome = result
            if !(result.changed.isEmpty && result.removed.isEmpty) {
                // Old versions' tiles would only crowd out current ones.
                cache.retainVersions(catalog.currentVersions)
            }
            if !result.unsettled.isEmpty {
                loop.withLock { loop in
                    loop.unsettled.formUnion(result.unsettled)
                    loop.settlesAt = min(loop.settlesAt ?? result.settlesAt!, result.settlesAt!)
                }
            }
            queue(result.pending)
            let seconds = (ContinuousClock.now - started).inSeconds
            metrics.scans.increment(by: 1, [("kind", kind)])
            metrics.scanDuration.observe(seconds, [("kind", kind)])
            if scope.isEverything {
                logger.debug("full scan", [("files", String(result.files)), ("stats", String(result.stats)),
                                           ("seconds", String(format: "%.3f", seconds))])
                let changed = loop.withLock { loop -> Bool in
                    defer { loop.skipped = result.skipped }
                    return loop.skipped != result.skipped
                }
                if changed, let summary = result.skippedSummary {
                    logger.warning("some entries of the photos folder are not listed", [("skipped", summary)])
                }
            }
            let collect = scope.isEverything || !result.removed.isEmpty || !result.changed.isEmpty
            if collect { collectGarbageNow(force: scope.isEverything) }
            if scope.isEverything { readMissingHeadersInBackground() }
        } catch {
            logger.error("scan failed", [("error", "\(error)")])
        }
        report(healthBefore: wasDegraded)
        metrics.record(catalog)
        return outcome
    }

    /// Reads the catalog as another process left it: the scanning replica's new photos, other
    /// replicas' built pyramids; queues what still wants a build (its claim decides who builds).
    func reloadFromStore() {
        do {
            let pending = try catalog.reload()
            queue(pending)
            metrics.record(catalog)
        } catch {
            logger.warning("cannot read the catalog; trying again at the next scan", [("error", "\(error)")])
        }
    }

    /// Tells the other processes on a shared catalog that it changed (PostgreSQL `NOTIFY`).
    func announceChange() {
        guard let claims, claims.engine == .postgres else { return }
        do {
            try claims.notify(channel: Self.changeChannel, payload: Self.processToken)
        } catch {
            logger.debug("cannot announce a catalog change; other replicas find it at their next scan", [("error", "\(error)")])
        }
    }

    /// Hears other replicas' changes to a shared catalog and reloads it soon after each batch.
    private func listenForOtherProcesses() {
        guard let claims, claims.engine == .postgres else { return }
        do {
            let listener = try claims.listen([Self.changeChannel]) { [weak self] event in
                guard let self else { return }
                switch event {
                case .notification(let notification) where notification.payload == Self.processToken:
                    break
                case .notification, .connected:
                    // On (re)connection too: changes made while not listening are read then.
                    self.loop.withLock { $0.reloadRequested = true }
                    self.wake.signal()
                case .disconnected:
                    break
                }
            }
            loop.withLock { $0.listener = listener }
        } catch {
            logger.warning("cannot listen for other replicas' catalog changes; they are read at each rescan", [("error", "\(error)")])
        }
    }

    /// Photos catalogued before their details were kept get them from their headers, beside
    /// the ingest (one pass at a time; a pass already running is left to finish).
    private func readMissingHeadersInBackground() {
        let thread = Thread { [self] in catalog.readMissingHeaders(isStopped: { [self] in self.isStopping }) }
        thread.name = "photo-headers"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Says in the log when folders stop or start being reachable.
    private func report(healthBefore: LibraryHealth) {
        let health = catalog.health
        guard health != healthBefore else { return }
        if let summary = health.summary {
            if Set(health.unreachable.keys) != Set(healthBefore.unreachable.keys) {
                logger.warning("degraded: \(summary)", [("folders", health.unreachable.keys.sorted().joined(separator: ","))])
            }
        } else if healthBefore.isDegraded {
            logger.info("every folder of photos can be reached again")
        }
    }

    /// Someone opened this photo: it is examined now when it was not (a viewer needs its size),
    /// and its build, if still queued, goes to the front.
    public func prepareForViewing(_ id: Int) {
        if catalog.entry(id)?.hashed == false { catalog.examine(id) }
        if let photo = catalog.photo(id), photo.status == .processing { ingest.prioritize(photoID: id, version: photo.version) }
    }

    /// Queues listed photos for ingest (in one go, however many): each goes through its first
    /// stage (examined, thumbnail) and then its pyramid build.
    func queue(_ ids: [Int]) {
        guard !ids.isEmpty else { return }
        let jobs = ids.compactMap { id in
            catalog.photo(id).map { IngestJob(photoID: $0.id, version: $0.version, pixels: $0.width * $0.height, stage: .first) }
        }.filter { retries.isDue($0.version) }
        ingest.enqueue(jobs)
        progress.withLock { $0.queued(jobs.count) }
    }

    /// Queues a photo's pyramid build in the background, unless it waits to be retried.
    func queue(_ photo: Photo) {
        guard retries.isDue(photo.version) else { return }
        ingest.enqueue(IngestJob(photoID: photo.id, version: photo.version, pixels: photo.width * photo.height))
    }

    /// Blocks until every queued build has finished (for tools and tests); true when idle.
    @discardableResult
    func waitForIngest(timeoutSeconds: Double = 600) -> Bool {
        ingest.waitUntilIdle(timeoutSeconds: timeoutSeconds)
    }
}
