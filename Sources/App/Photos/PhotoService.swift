import HTTP
import Observability

/// The photo side of the application: catalog, ingest and the photo, thumbnail and tile routes.
public final class PhotoService: Sendable {
    public init(configuration: Configuration, logger: Logger, metrics: MetricsRegistry) throws {}

    /// Starts scanning and background ingest; returns at once.
    public func start() {}

    /// Stops background work.
    public func stop() {}

    /// Whether the catalog has been loaded (for /readyz).
    public var isReady: Bool { true }

    /// Whether a photo with this id exists (any status).
    public func photoExists(_ id: Int) -> Bool { false }

    /// Number of photos in the catalog.
    public var count: Int { 0 }

    /// Registers GET /photos, /photos/:id, thumbnails and tiles. `commentCount` gives each photo's count.
    public func register(on router: inout Router, commentCount: @escaping @Sendable (Int) -> Int) {}
}
