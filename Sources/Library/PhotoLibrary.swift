import Foundation
import Imaging
import Observability
import Synchronization

/// The photo library: catalog, background scans and ingest, and the tile and thumbnail caches.
///
/// It answers from the moment it is made (the stored catalog is loaded first); `start()` then
/// scans in the background, builds missing pyramids and rescans every `rescanSeconds`.
public final class PhotoLibrary: Sendable, MetricsCollector {
    public let configuration: LibraryConfiguration
    public let catalog: PhotoCatalog
    public let cache: TileCache
    let renderer: any PhotoRendering
    let logger: Logger
    let metrics: LibraryMetrics
    let renders = SingleFlight<TileKey, [UInt8]>()
    let ingest: IngestQueue
    /// Builds waiting to be tried again after a failure that was not the file's.
    let retries = BuildRetries()

    private struct Loop {
        var started = false
        var stopped = false
        var ready = false
    }
    private let loop = Mutex(Loop())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Opens the catalog (SQLite in the data folder unless a store is given) and the caches.
    public init(configuration: LibraryConfiguration, store: (any CatalogStore)? = nil,
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
        let store = try store ?? SQLiteCatalogStore(path: configuration.catalogPath)
        self.renderer = renderer
        self.logger = logger
        let metrics = LibraryMetrics(metrics)
        self.metrics = metrics
        self.cache = TileCache(capacityBytes: configuration.tileCacheBytes)
        self.catalog = try PhotoCatalog(folder: PhotoFolder(root: configuration.photosDirectory),
                                        tilesDirectory: configuration.tilesDirectory, settings: configuration.settings,
                                        store: store, renderer: renderer, logger: logger)
        // The queue calls back into the library; a box breaks the init-order cycle.
        let box = WeakBox()
        self.ingest = IngestQueue(concurrency: configuration.ingestConcurrency,
                                  onLengthChange: { metrics.queueLength.set(Double($0)) },
                                  work: { job in box.library?.build(job) })
        box.library = self
        metrics.record(photos: catalog.photos)
        // Cache hits are counted by the cache and added to the metrics when they are read.
        registry.addCollector(self)
    }

    private final class WeakBox: @unchecked Sendable {
        weak var library: PhotoLibrary?
    }

    /// Every present photo in id order.
    public var photos: [Photo] { catalog.photos }

    /// One photo, or nil.
    public func photo(_ id: Int) -> Photo? { catalog.photo(id) }

    /// The version, size and status of one photo, or nil: the start of every image request.
    public func imageInfo(_ id: Int) -> PhotoImageInfo? { catalog.imageInfo(id) }

    /// True once the first scan has completed.
    public var isReady: Bool { loop.withLock { $0.ready } }

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
        let wasRunning = loop.withLock { loop -> Bool in
            defer { loop.stopped = true }
            return loop.started && !loop.stopped
        }
        ingest.stop()
        guard wasRunning else { return }
        wake.signal()
        _ = finished.wait(timeout: .now() + 5)
    }

    /// Asks the background loop to scan now instead of at the next interval.
    public func requestRescan() { wake.signal() }

    private var stopped: Bool { loop.withLock { $0.stopped } }

    /// Whether `stop()` was called.
    var isStopping: Bool { stopped }

    private func run() {
        defer { finished.signal() }
        if configuration.makesDemo {
            // Drawn beside the scans: each photo is listed as soon as it lands, in name order.
            let demo = Thread { [self] in
                DemoLibrary(directory: configuration.photosDirectory, logger: logger)
                    .make(isStopped: { [self] in self.stopped }, onPhoto: { [self] in self.requestRescan() })
            }
            demo.name = "demo-photos"
            demo.start()
        }
        while !stopped {
            refresh()
            loop.withLock { $0.ready = true }
            let interval = configuration.rescanSeconds
            _ = interval > 0 ? wake.wait(timeout: .now() + interval) : wake.wait(timeout: .distantFuture)
        }
    }

    /// One scan, then queue what needs building and collect stale tiles. Also usable without `start()`.
    public func refresh() {
        do {
            // Builds are queued after the scan, once the published list holds every photo.
            let result = try catalog.scan()
            if !(result.changed.isEmpty && result.removed.isEmpty) {
                // Old versions' tiles would only crowd out current ones.
                cache.retainVersions(catalog.currentVersions)
            }
        } catch {
            logger.error("scan failed", [("error", "\(error)")])
        }
        for photo in catalog.photos where photo.status == .processing { queue(photo) }
        metrics.record(photos: catalog.photos)
        collectGarbage()
    }

    /// Queues a photo's pyramid build in the background, unless it waits to be retried.
    func queue(_ photo: Photo) {
        guard retries.isDue(photo.version) else { return }
        ingest.enqueue(IngestJob(photoID: photo.id, version: photo.version, pixels: photo.width * photo.height))
    }

    /// Blocks until every queued build has finished (for tools and tests); true when idle.
    @discardableResult
    public func waitForIngest(timeoutSeconds: Double = 600) -> Bool {
        ingest.waitUntilIdle(timeoutSeconds: timeoutSeconds)
    }
}
