import Foundation
import Observability

/// The library's metrics, created once in the registry it is handed.
struct LibraryMetrics: Sendable {
    let cacheHits: Counter
    let cacheMisses: Counter
    let cacheBytes: Gauge
    let queueLength: Gauge
    let ingestDuration: Histogram
    let ingestFailures: Counter
    let pyramidsBuilt: Counter
    let buildsElsewhere: Counter
    let photos: Gauge
    let unexamined: Gauge
    let degraded: Gauge
    let watchedFolders: Gauge
    let scans: Counter
    let scanDuration: Histogram
    let stageDone: Gauge
    let stageQueued: Gauge
    /// Held from reading the figures to setting them. Two ingest threads record after their own
    /// photos: without it, one that read 299 ready photos could set its 299 after the other set
    /// 300, and the gauge would stay behind the catalog until the next change.
    private let recording = NSLock()

    init(_ registry: MetricsRegistry) {
        cacheHits = registry.counter("photoscroll_tile_cache_hits_total", help: "Tiles and thumbnails answered from memory.")
        cacheMisses = registry.counter("photoscroll_tile_cache_misses_total", help: "Tiles and thumbnails read from disk or rendered.")
        cacheBytes = registry.gauge("photoscroll_tile_cache_bytes", help: "Bytes held by the in-memory tile cache.")
        queueLength = registry.gauge("photoscroll_ingest_queue_length", help: "Pyramids queued or being built.")
        ingestDuration = registry.histogram("photoscroll_ingest_duration_seconds", help: "Time to build one photo's pyramid.",
                                            buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 60, 120, 300])
        pyramidsBuilt = registry.counter("photoscroll_pyramids_built_total", help: "Pyramids this process built (each is built by one process of a cluster).")
        buildsElsewhere = registry.counter("photoscroll_pyramid_builds_elsewhere_total",
                                           help: "Builds left to another process that held the photo's build claim.")
        ingestFailures = registry.counter("photoscroll_ingest_failures_total", help: "Photos that could not be probed or built.")
        photos = registry.gauge("photoscroll_photos", help: "Photos in the catalog, by status.")
        unexamined = registry.gauge("photoscroll_photos_unexamined", help: "Listed photos whose bytes are not hashed yet.")
        degraded = registry.gauge("photoscroll_library_degraded", help: "1 while a folder of photos cannot be reached.")
        watchedFolders = registry.gauge("photoscroll_library_watched_folders", help: "Folders watched for changes (0: full rescans only).")
        scans = registry.counter("photoscroll_library_scans_total", help: "Scans of the photos folder, by kind (full or partial).")
        stageDone = registry.gauge("photoscroll_ingest_stage_photos", help: "Photos past an ingest stage (thumbnails: first stage; pyramids: built), and photos in all (stage total).")
        stageQueued = registry.gauge("photoscroll_ingest_stage_queue_length", help: "Ingest jobs queued or running, by stage.")
        scanDuration = registry.histogram("photoscroll_library_scan_duration_seconds", help: "Time one scan took, by kind.",
                                          buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60])
    }

    func record(_ catalog: PhotoCatalog) {
        recording.withLock {
            let counts = catalog.statusCounts
            for status in PhotoStatus.allCases {
                photos.set(Double(counts[status] ?? 0), [("status", status.rawValue)])
            }
            unexamined.set(Double(catalog.unexaminedCount))
            degraded.set(catalog.health.isDegraded ? 1 : 0)
        }
    }

    /// `stages` is read under the same lock, for the same reason.
    func record(_ stages: @autoclosure () -> IngestStages) {
        recording.withLock { set(stages()) }
    }

    private func set(_ stages: IngestStages) {
        stageDone.set(Double(stages.thumbnails), [("stage", "thumbnails")])
        stageDone.set(Double(stages.pyramids), [("stage", "pyramids")])
        stageDone.set(Double(stages.photos), [("stage", "total")])
        stageQueued.set(Double(stages.queuedFirst), [("stage", "thumbnails")])
        stageQueued.set(Double(stages.queuedPyramids), [("stage", "pyramids")])
    }
}
