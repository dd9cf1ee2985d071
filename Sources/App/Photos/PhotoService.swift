import Access
import Foundation
import HTTP
import IIIF
import Imaging
import Library
import Observability
import POSIX
import SQL
import Search
import SearchIndex
import Synchronization

/// The photo side of the application: catalog, ingest and the photo, thumbnail and tile routes.
public final class PhotoService: Sendable {
    /// The catalog, caches and background work behind the routes: the photo side's one
    /// concrete hold on it, handing each route the role it needs.
    public let library: PhotoLibrary
    let tileSize: Int
    let logger: Logger
    let metrics: MetricsRegistry
    private let events = Mutex<PhotoLiveEvents?>(nil)
    let imageLimits: ImageLimits
    let serviceBase: ServiceBase
    let rendersPerPhoto: Int
    let rendersPerClient: Int
    /// Longest one IIIF rendition may take.
    let renderSeconds: Double
    let downloadOriginals: Bool
    let showLocation: Bool

    /// Hot tiles' answers, encoded once per cache entry and shared by every image route.
    let answers: TileAnswers<PhotoLibrary>
    /// `private` everywhere on a private library.
    let caching: CachePolicy

    /// The library's catalog lives in `database` (SQLite in the data folder, or PostgreSQL shared
    /// by every replica); nil opens `<data>/catalog.sqlite`. Tiles and thumbnails are libvips'.
    public convenience init(configuration: Configuration, database: SQLDatabase? = nil, logger: Logger, metrics: MetricsRegistry) throws {
        try Vips.initialize(cacheMegabytes: configuration.vipsCacheMegabytes, concurrency: configuration.vipsConcurrency,
                            regionTileMegabytes: configuration.regionTileMegabytes)
        try self.init(configuration: configuration, database: database,
                      renderer: VipsPhotoRendering(settings: LibraryConfiguration(configuration).settings),
                      logger: logger, metrics: metrics)
    }

    /// With what renders tiles and thumbnails and reads photos' headers (`renderer`), and where the
    /// catalog is kept (`database`, else `<data>/catalog.sqlite`) given by the caller: libvips is
    /// neither started nor called unless `renderer` calls it.
    public init(configuration: Configuration, database: SQLDatabase? = nil,
                renderer: any PhotoRendering, logger: Logger, metrics: MetricsRegistry) throws {
        self.library = try PhotoLibrary(configuration: LibraryConfiguration(configuration), database: database,
                                        renderer: renderer, logger: logger, metrics: metrics)
        self.caching = CachePolicy(private: AccessMode.resolve(configuration.access, host: configuration.host) == .private)
        self.answers = TileAnswers(library: library, caching: caching)
        self.tileSize = configuration.tileSize
        self.logger = logger
        self.metrics = metrics
        self.imageLimits = ImageLimits(maxArea: configuration.iiifMaxArea,
                                       maxWidth: configuration.iiifMaxWidth > 0 ? configuration.iiifMaxWidth : nil,
                                       maxHeight: configuration.iiifMaxHeight > 0 ? configuration.iiifMaxHeight : nil)
        self.serviceBase = ServiceBase(publicURL: configuration.publicURL)
        self.rendersPerPhoto = configuration.rendersPerPhoto
        self.rendersPerClient = configuration.rendersPerClient
        self.renderSeconds = configuration.iiifRenderSeconds
        self.downloadOriginals = configuration.downloadOriginals
        self.showLocation = configuration.showLocation
    }

    /// Starts scanning and background ingest; returns at once.
    public func start() { library.start() }

    /// Stops background work and closes the live streams.
    public func stop() {
        events.withLock { $0 }?.closeAll()
        library.stop()
    }

    /// Whether the catalog has been loaded (for /readyz).
    public var isReady: Bool { library.isReady }

    /// Whether a photo with this id exists (any status).
    public func photoExists(_ id: Int) -> Bool { library.photo(id) != nil }

    /// Number of photos in the catalog.
    public var count: Int { library.count }

    /// Registers GET /photos, /photos/summary, /photos/events, /photos/:id, thumbnails, tiles,
    /// DeepZoom, and the IIIF image service and manifests. `commentCount` gives each photo's count.
    public func register(on router: inout Router, commentCount: @escaping @Sendable (Int) -> Int) {
        register(on: &router, commentCount: commentCount, rules: .none)
    }

    /// The photo and IIIF routes under `rules`.
    func register(on router: inout Router, commentCount: @escaping @Sendable (Int) -> Int, rules: RouteRules,
                  albums: (any PhotoCollections)? = nil, search: SearchIndexer? = nil) {
        let events = PhotoLiveEvents(library: library, tileSize: tileSize, commentCount: commentCount, metrics: metrics,
                                     collections: albums, options: PhotoRecord.Options(original: downloadOriginals, showLocation: showLocation),
                                     cacheControl: caching.revalidate)
        self.events.withLock { $0 = events }
        let routes = PhotoRoutes(library: library, tileSize: tileSize, commentCount: commentCount, logger: logger,
                                 summary: PhotoSummary(library: library), events: events, answers: answers,
                                 rendersPerPhoto: rendersPerPhoto, rendersPerClient: rendersPerClient,
                                 downloadOriginals: downloadOriginals, showLocation: showLocation, rules: rules, caching: caching, albums: albums)
        routes.register(on: &router)
        let iiif = IIIFRoutes(library: library, tileSize: tileSize, thumbnailSize: library.configuration.settings.thumbnailSize,
                              limits: imageLimits, base: serviceBase, logger: logger,
                              answers: answers, renderSeconds: renderSeconds, rules: rules, caching: caching)
        iiif.register(on: &router)
        routes.registerListManifests(on: &router, iiif: iiif)
        let shared = rules.control.map {
            SharedRoutes(control: $0, photos: routes, iiif: iiif, downloadOriginals: downloadOriginals, albums: albums)
        }
        shared?.register(on: &router)
        if let search {
            let suggestions = PhotoSuggestions(library: library, places: search.places)
            search.whenIdle { _ = suggestions.vocabulary }
            SearchRoutes(indexer: search, photos: routes, suggestions: suggestions).register(on: &router, shared: shared)
            PlaceRoutes(photos: routes, places: PhotoPlaces(library: library, places: search.places)).register(on: &router, shared: shared)
            MemoryRoutes(photos: routes).register(on: &router, shared: shared)
        }
    }

    /// Whether photo `id` is among what a share link shows: the photo itself, a photo directly
    /// in the folder, or a listed photo of the album (`albums`' answer, at most a few seconds old).
    func isShared(_ id: Int, _ target: Share.Target, albums: (any PhotoCollections)?) -> Bool {
        switch target {
        case .photo(let shared): id == shared && library.photo(id) != nil
        case .folder(let folder): library.albumID(ofPhoto: id) == folder
        case .album(let album):
            library.photo(id) != nil && ((try? albums?.members(of: album))??.contains(id) ?? false)
        }
    }

    /// Why the library is degraded (a folder of photos cannot be reached, changes cannot be
    /// watched and are found by rescans), or nil.
    public var degradation: String? {
        let reasons = [library.health.summary, library.watchStatus].compactMap { $0 }
        return reasons.isEmpty ? nil : reasons.joined(separator: " ")
    }

    /// How far the ingest's stages are while some photo is not built yet (for /readyz), or nil.
    public var ingestProgress: String? { library.stages.summary }
}

extension LibraryConfiguration {
    /// The library's settings from the application's; no photos folder means the demo library
    /// in `<data>/demo`.
    public init(_ configuration: Configuration) {
        let color = Configuration.parseColor(configuration.background) ?? (255, 255, 255)
        let settings = RenderSettings(tileSize: configuration.tileSize, jpegQuality: configuration.jpegQuality,
                                      thumbnailSize: configuration.thumbnailSize,
                                      background: RGB(red: color.red, green: color.green, blue: color.blue),
                                      maxImagePixels: configuration.maxImagePixels,
                                      buildMemoryBytes: configuration.buildMemoryMegabytes << 20)
        let demo = configuration.photos.isEmpty
        self.init(photosDirectory: demo ? configuration.data + "/demo" : configuration.photos,
                  dataDirectory: configuration.data, settings: settings,
                  tileCacheBytes: configuration.tileCacheMegabytes << 20,
                  ingestConcurrency: configuration.ingestConcurrency == 0 ? System.coreCount : configuration.ingestConcurrency,
                  rescanSeconds: Double(configuration.rescanSeconds),
                  missingGraceSeconds: Double(configuration.missingGraceSeconds), makesDemo: demo, ingestDelaySeconds: 1,
                  extraRoots: configuration.extraRootList)
    }
}
