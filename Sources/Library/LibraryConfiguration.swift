import Foundation
import Imaging

/// What the library needs to know, taken from the application's configuration.
public struct LibraryConfiguration: Sendable {
    /// Folder of photos; with `makesDemo` it is filled with the demo library first.
    public var photosDirectory: String
    /// Folder for the catalog database and the tile folders.
    public var dataDirectory: String
    public var settings: RenderSettings
    /// Byte cap of the in-memory tile cache. Default 256 MiB.
    public var tileCacheBytes: Int
    /// Pyramids built at the same time. Default: one per core.
    public var ingestConcurrency: Int
    /// Seconds between full scans; 0 scans in full only at start and when asked. Changes are
    /// seen as they happen where the folder can be watched (inotify), so this is a safety net
    /// there, and the only way changes are found elsewhere. Default 3600.
    public var rescanSeconds: Double
    /// Whether to watch the folder for changes (inotify, on Linux). Default true.
    public var watchesFolder: Bool
    /// A new or changed file is taken once it has not been modified for this long, so a photo
    /// still being copied in is not read half-written. Default 2 s.
    public var settleSeconds: Double
    /// How long the pyramid of a removed photo is kept (it comes back ready if the file does),
    /// and how long photos of a subfolder that cannot be reached stay listed. Default a day.
    public var missingGraceSeconds: Double
    /// Whether to make the demo photos in `photosDirectory` when it has none. Default false.
    public var makesDemo: Bool
    /// Tile folders of versions no photo uses are deleted once older than this. Default 60 s.
    public var garbageAgeSeconds: Double
    /// A background build starts this long after its photo was queued, so that the first
    /// on-demand tiles of a new photo do not compete with it. Default 0.
    public var ingestDelaySeconds: Double
    /// A build that failed for a reason not the file's own (a full disk, a write error) is tried
    /// again after this long, doubling on each failure up to `maxRetryDelaySeconds`. Default 5 s.
    public var retryDelaySeconds: Double
    /// The longest wait between retries of one build. Default one hour.
    public var maxRetryDelaySeconds: Double
    /// Folders outside the photos folder that links in it may lead into (a second disk); links
    /// anywhere else are not followed. Default none.
    public var extraRoots: [String]
    /// While the folder should be watched but cannot be (the inotify watch limit reached), it is
    /// scanned in full at least this often. Default 60 s.
    public var unwatchedRescanSeconds: Double
    /// After running out of watches, watching is tried again at most this often. Default 600 s.
    public var watchRetrySeconds: Double
    /// Most folders watched (nil: as many as the kernel allows); the library falls back to
    /// rescans beyond it as it does at the kernel's limit. Default nil.
    public var maxWatchedFolders: Int?

    public init(photosDirectory: String, dataDirectory: String, settings: RenderSettings = RenderSettings(),
                tileCacheBytes: Int = 256 << 20, ingestConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
                rescanSeconds: Double = 3600, watchesFolder: Bool = true, settleSeconds: Double = 2,
                missingGraceSeconds: Double = 86_400, makesDemo: Bool = false, garbageAgeSeconds: Double = 60,
                ingestDelaySeconds: Double = 0, retryDelaySeconds: Double = 5, maxRetryDelaySeconds: Double = 3600,
                extraRoots: [String] = [], unwatchedRescanSeconds: Double = 60, watchRetrySeconds: Double = 600,
                maxWatchedFolders: Int? = nil) {
        self.extraRoots = extraRoots
        self.unwatchedRescanSeconds = unwatchedRescanSeconds
        self.watchRetrySeconds = watchRetrySeconds
        self.maxWatchedFolders = maxWatchedFolders
        self.retryDelaySeconds = retryDelaySeconds
        self.maxRetryDelaySeconds = maxRetryDelaySeconds
        self.photosDirectory = photosDirectory
        self.dataDirectory = dataDirectory
        self.settings = settings
        self.tileCacheBytes = tileCacheBytes
        self.ingestConcurrency = ingestConcurrency
        self.rescanSeconds = rescanSeconds
        self.watchesFolder = watchesFolder
        self.settleSeconds = settleSeconds
        self.missingGraceSeconds = missingGraceSeconds
        self.makesDemo = makesDemo
        self.garbageAgeSeconds = garbageAgeSeconds
        self.ingestDelaySeconds = ingestDelaySeconds
    }

    /// `<data>/tiles`.
    public var tilesDirectory: String { dataDirectory + "/tiles" }
    /// `<data>/catalog.sqlite`.
    public var catalogPath: String { dataDirectory + "/catalog.sqlite" }
}
