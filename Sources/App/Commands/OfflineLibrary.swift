import Imaging
import Library
import Observability

/// The library without the server: the demo made when needed, one scan, no background work.
enum OfflineLibrary {
    /// The catalog is `databases.catalog`'s (the `database` setting's), else `<data>/catalog.sqlite`'s.
    /// `examines` false lists new files without reading them (the ingest examines each right
    /// before building it).
    static func open(_ configuration: Configuration, databases: ApplicationDatabases? = nil, examines: Bool = true,
                     logger: Logger) throws -> PhotoLibrary {
        try Vips.initialize(cacheMegabytes: configuration.vipsCacheMegabytes, concurrency: configuration.vipsConcurrency,
                            regionTileMegabytes: configuration.regionTileMegabytes)
        var settings = LibraryConfiguration(configuration)
        settings.rescanSeconds = 0
        settings.ingestDelaySeconds = 0
        if settings.makesDemo {
            DemoLibrary(directory: settings.photosDirectory, logger: logger).make()
        }
        let library = try PhotoLibrary(configuration: settings, database: databases?.catalog, logger: logger, metrics: MetricsRegistry())
        try library.scanOffline(examines: examines)
        return library
    }
}
