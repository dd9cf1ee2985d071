import Observability

/// The library's metrics, created once in the registry it is handed.
struct LibraryMetrics: Sendable {
    let cacheHits: Counter
    let cacheMisses: Counter
    let cacheBytes: Gauge
    let queueLength: Gauge
    let ingestDuration: Histogram
    let ingestFailures: Counter
    let photos: Gauge

    init(_ registry: MetricsRegistry) {
        cacheHits = registry.counter("photoscroll_tile_cache_hits_total", help: "Tiles and thumbnails answered from memory.")
        cacheMisses = registry.counter("photoscroll_tile_cache_misses_total", help: "Tiles and thumbnails read from disk or rendered.")
        cacheBytes = registry.gauge("photoscroll_tile_cache_bytes", help: "Bytes held by the in-memory tile cache.")
        queueLength = registry.gauge("photoscroll_ingest_queue_length", help: "Pyramids queued or being built.")
        ingestDuration = registry.histogram("photoscroll_ingest_duration_seconds", help: "Time to build one photo's pyramid.",
                                            buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 60, 120, 300])
        ingestFailures = registry.counter("photoscroll_ingest_failures_total", help: "Photos that could not be probed or built.")
        photos = registry.gauge("photoscroll_photos", help: "Photos in the catalog, by status.")
    }

    func record(photos list: [Photo]) {
        for status in PhotoStatus.allCases {
            photos.set(Double(list.filter { $0.status == status }.count), [("status", status.rawValue)])
        }
    }
}
