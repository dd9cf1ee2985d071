import HTTP
import Imaging
import Library
import Observability
import Synchronization

/// GET /photos (paged), /photos/summary, /photos/events, /photos/:id, /photos/:id/thumbnail.jpg,
/// /photos/:id/tiles/:z/:x/:y.jpg and /photos/:id/original, and DeepZoom's /photos/:id/image.dzi
/// and /photos/:id/image_files/:level/:x_:y.jpg.
///
/// Images answer a memory hit inline on the event loop and offload everything else (disk reads,
/// renders) to the worker pool. A URL with the current `?v=` is immutable; without it, or with a
/// stale one, the current bytes are served with a short max-age (never the old version's tiles).
///
/// Generic over the library's roles rather than holding them as `any`: the tile route is hot,
/// and specialised on `PhotoLibrary` a tile from memory costs no dynamic dispatch.
struct PhotoRoutes<Photos: PhotoBrowsing & ImageServing>: Sendable {
    let library: Photos
    let tileSize: Int
    let commentCount: @Sendable (Int) -> Int
    let logger: Logger
    let summary: PhotoSummary
    let events: PhotoLiveEvents
    /// Hot tiles' answers, encoded once per cache entry.
    let answers: TileAnswers<Photos>

    /// Photos in a page when `limit` is not given, and the most a page may hold.
    static var defaultLimit: Int { 200 }
    static var maxLimit: Int { 1000 }
    /// Most on-demand renders of one photo, and for one client, running at once.
    var rendersPerPhoto = 2
    var rendersPerClient = 4
    /// Photo versions whose renders have failed, so each is warned about once.
    let renderFailures = RenderFailures()
    /// Whether GET /photos/:id/original answers (the `downloadOriginals` setting).
    var downloadOriginals = true
    /// Whether records say where photos were taken (the `showLocation` setting).
    var showLocation = false
    /// Who may use each route.
    var rules = RouteRules.none
    /// `private` everywhere on a private library.
    var caching = CachePolicy.public
    /// Albums (collections); nil for a router made without them, which then has none.
    var albums: (any PhotoCollections)? = nil

    func register(on router: inout Router) {
        // Images and the catalog each have worker threads of their own (see `WorkLanes`).
        let library = rules(.library)
        router.addReply(.GET, "/photos/:id/tiles/:z/:x/:y.jpg", lane: WorkLanes.images, access: library) { request in
            guard let tile = PhotoPath.tile(request.parameters) else { throw Self.noSuchTile(request) }
            return try image(request, tile: tile)
        }
        router.addReply(.GET, "/photos/:id/thumbnail.jpg", lane: WorkLanes.images, access: library) { request in try image(request, tile: nil) }
        router.get("/photos/:id/original", lane: WorkLanes.images, access: library) { request in try original(request) }
        registerDeepZoom(on: &router)
        router.get("/photos", lane: WorkLanes.catalog, access: library) { request in try list(request) }
        router.get("/photos/summary", lane: WorkLanes.catalog, access: library) { request in try summaryResponse(request) }
        router.get("/photos/events", lane: WorkLanes.catalog, access: library) { request in
            // The stream ends with the session it was opened with; favourites and the trash go
            // only to whoever may read them.
            let manages = rules.control.map { control in (try? control.mayManage(request)) ?? false } ?? true
            return try rules.bound(events.response(manages: manages), to: request)
        }
        router.get("/photos/:id", lane: WorkLanes.catalog, access: library) { request in try one(request) }
        registerFolders(on: &router)
        registerAlbums(on: &router)
    }

    /// One page: `?limit=` (1–1000, default 200) photos after the id `?after=`, in the order
    /// `?order=` (`taken`, the default, or `id`), with the total and the next page's URL (also
    /// as `Link: <…>; rel="next"`).
    func list(_ request: HTTPRequest, view: PhotoView? = nil) throws -> HTTPResponse {
        let view = view ?? libraryView
        return try listResponse(request, scope: view.listScope, base: view.prefix + "/photos", view: view)
    }

    /// The library as the settings show it.
    var libraryView: PhotoView { PhotoView.library(original: downloadOriginals, showLocation: showLocation) }

    /// A page of a list (the library, an album's photos, or what a link shows), the same way; a
    /// nil scope is the one photo a link shares.
    func listResponse(_ request: HTTPRequest, scope: PhotoScope?, base: String, heading: (any Encodable)? = nil,
                      view: PhotoView? = nil) throws -> HTTPResponse {
        let view = view ?? libraryView
        let limit = try Self.number(request, "limit", range: 1...Self.maxLimit,
                                    "limit must be a whole number from 1 to \(Self.maxLimit).") ?? Self.defaultLimit
        let after = try Self.number(request, "after", range: 0...Int.max,
                                    "after must be a photo id (a whole number) from a previous page's next.")
        let order = try Self.order(request)
        let found: (photos: [Photo], total: Int, more: Bool)?
        if let scope {
            found = library.page(after: after, limit: limit, order: order, scope: scope)
        } else if case .photo(let id) = view.scope, let photo = library.photo(id) {
            found = (after == nil ? [photo] : [], 1, false)
        } else {
            found = nil
        }
        guard let page = found else {
            throw HTTPError(.notFound, "There is no album at \(request.path).")
        }
        // An order asked for is asked for again (an album in its own order has its own default).
        let orderQuery = request.query("order") == nil ? "" : "&order=\(order.rawValue)"
        let next = page.more ? page.photos.last.map { "\(base)?after=\($0.id)&limit=\(limit)\(orderQuery)" } : nil
        // During a first ingest most photos are listed but not examined yet: their headers are read
        // now, so every record on the page has its size.
        let photos = library.probeSizes(page.photos)
        let options = view.options, showsComments = view.comments
        let records = PhotoPage(photos: photos.map { PhotoRecord($0, tileSize: tileSize, commentCount: showsComments ? commentCount($0.id) : 0,
                                                                 options: options) },
                                total: page.total, next: Nullable(next))
        var response = try heading.map { try json(HeadedPage(heading: $0, page: records), request) } ?? json(records, request)
        if let next { response.headers.set("Link", "<\(next)>; rel=\"next\"") }
        return response
    }

    /// `?order=`: `taken` (the default) or `id`; 400 for anything else.
    static func order(_ request: HTTPRequest) throws -> PhotoOrder {
        guard let text = request.query("order") else { return .taken }
        guard let order = PhotoOrder(rawValue: text) else {
            throw HTTPError(.badRequest, "order must be taken (by date taken, the default) or id. Got \"\(text.prefix(40))\".")
        }
        return order
    }


    /// One photo with its place: `position` in the library (in `?order=`) and the `previous`
    /// and `next` ids. A photo not examined yet is examined first (its size is what a viewer
    /// needs), and moves to the front of the ingest queue: someone is looking at it.
    func one(_ request: HTTPRequest, view: PhotoView? = nil) throws -> HTTPResponse {
        let view = view ?? libraryView
        let photo = try find(request)
        let order = try Self.order(request)
        library.prepareForViewing(photo.id)
        let place: (photo: Photo, position: Int, previous: Int?, next: Int?)?
        if let scope = view.listScope {
            place = library.neighbours(of: photo.id, order: order, scope: scope)
        } else {
            place = (photo, 0, nil, nil)
        }
        guard let place else {
            throw HTTPError(.notFound, "There is no photo at \(request.path).")
        }
        return try json(PhotoRecord(place.photo, position: place.position, previous: place.previous, next: place.next,
                                    tileSize: tileSize, commentCount: view.comments ? commentCount(photo.id) : 0, options: view.options),
                        request)
    }

    /// The summary of what `view` sees (`?order=` as for pages), or 304 when the client has it.
    func summaryResponse(_ request: HTTPRequest, view: PhotoView) throws -> HTTPResponse {
        if let scope = view.listScope { return try summaryResponse(request, scope: scope) }
        guard case .photo(let id) = view.scope, let photo = library.photo(id) else {
            throw HTTPError(.notFound, "There is no photo at \(request.path).")
        }
        let body = try JSONWriter.bytes(PhotoSummary.body([photo]))
        let etag = "\"s" + ContentHash.hex(of: body) + "\""
        if PhotoCaching.notModified(request, etag: etag) {
            return PhotoCaching.notModifiedResponse(etag: etag, cacheControl: caching.revalidate)
        }
        return .json(bytes: body, headers: ["ETag": etag, "Cache-Control": caching.revalidate])
    }

    /// The summary of a list (`?order=` as for pages), or 304 when the client has it.
    func summaryResponse(_ request: HTTPRequest, scope: PhotoScope = .library) throws -> HTTPResponse {
        guard let built = try summary.current(try Self.order(request), scope: scope) else {
            throw HTTPError(.notFound, "There is no album at \(request.path).")
        }
        if PhotoCaching.notModified(request, etag: built.etag) {
            return PhotoCaching.notModifiedResponse(etag: built.etag, cacheControl: caching.revalidate)
        }
        return .json(bytes: built.body, headers: ["ETag": built.etag, "Cache-Control": caching.revalidate])
    }

    /// A value as JSON with a strong ETag from the body's hash, answering If-None-Match with 304.
    func json<Value: Encodable>(_ value: Value, _ request: HTTPRequest) throws -> HTTPResponse {
        let bytes = try JSONWriter.bytes(value)
        let etag = "\"" + ContentHash.hex(of: bytes) + "\""
        if PhotoCaching.notModified(request, etag: etag) {
            return PhotoCaching.notModifiedResponse(etag: etag, cacheControl: caching.revalidate)
        }
        return .json(bytes: bytes, headers: ["ETag": etag, "Cache-Control": caching.revalidate])
    }

    /// A whole-number query item within `range`; nil when absent, 400 with `message` otherwise.
    static func number(_ request: HTTPRequest, _ name: String, range: ClosedRange<Int>, _ message: String) throws -> Int? {
        guard let text = request.query(name) else { return nil }
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), range.contains(value) else {
            throw HTTPError(.badRequest, message + " Got \"\(text)\".")
        }
        return value
    }

    /// A tile, or the thumbnail when `tile` is nil, as the library's lookup finds it.
    func image(_ request: HTTPRequest, tile: TileCoordinate?) throws -> Reply {
        guard let id = PhotoPath.id(request.parameters) else { throw Self.noSuchPhoto(request) }
        // A conditional request is settled by the version alone, before any bytes are looked at.
        if request.hasIfNoneMatch, let answer = try notModified(request, id: id, tile: tile) { return answer }
        switch library.lookupImage(photoID: id, tile: tile) {
        case .held(let stamp):
            if let kept = answers.kept(stamp) { return hit(kept, request, tile: tile) }
            // The image's first hit: its answers are made now and kept. Gone meanwhile: looked up again.
            guard let image = library.image(stamp) else { return try self.image(request, tile: tile) }
            return hit(answers.answers(for: image, tile: tile), request, tile: tile)
        case .miss(let photo, let miss): return missed(photo, miss, request, tile: tile)
        case .notFound(.noSuchPhoto): throw Self.noSuchPhoto(request)
        case .notFound(.failed(let photo)): throw Self.cannotBeShown(photo)
        case .notFound(.outsidePyramid): throw Self.noSuchTile(request)
        }
    }

    /// An image in memory. The hot path is an unconditional request with the current `?v=`:
    /// its answer depends on the image alone, so it is encoded on the image's first hit and kept
    /// while the library holds the image (`TileAnswers`), and a hit spells, encodes and
    /// allocates nothing.
    @inline(__always)
    private func hit(_ kept: CachedTileAnswers, _ request: HTTPRequest, tile: TileCoordinate?) -> Reply {
        if kept.isCurrent(request.queryString) { return .encoded(kept.plain) }
        return .response(HTTPResponse(headers: Self.imageHeaders(etag: TileKey(version: kept.version, tile: tile).entityTag,
                                                                 cacheControl: caching.short), body: .bytes(kept.bytes)))
    }

    /// A 304 when If-None-Match names the image's current ETag; nil when the request goes on.
    /// Errors are the same as an unconditional request's.
    private func notModified(_ request: HTTPRequest, id: Int, tile: TileCoordinate?) throws -> Reply? {
        guard let photo = library.photo(id) else { throw Self.noSuchPhoto(request) }
        if photo.status == .failed { throw Self.cannotBeShown(photo) }
        if let tile {
            guard let pyramid = photo.pyramid(tileSize: tileSize), pyramid.contains(tile) else { throw Self.noSuchTile(request) }
        }
        let etag = TileKey(version: photo.version, tile: tile).entityTag
        guard PhotoCaching.notModified(request, etag: etag) else { return nil }
        var answer = PhotoCaching.notModifiedResponse(etag: etag, cacheControl: caching.cacheControl(request, version: photo.version))
        answer.headers.add(CrossOrigin.allowOrigin.0, CrossOrigin.allowOrigin.1)
        return .response(answer)
    }

    /// Head fields of an image answer, built once, in order, without the set-replaces-all pass of
    /// HTTPResponse(contentType:).
    static func imageHeaders(etag: String, cacheControl: String) -> HTTPHeaders {
        HTTPHeaders([("Content-Type", "image/jpeg"), ("ETag", etag), ("Cache-Control", cacheControl), CrossOrigin.allowOrigin])
    }

    /// An image not in memory: sent from disk, read into memory, or rendered, off the event loop.
    private func missed(_ photo: Photo, _ miss: ImageMiss, _ request: HTTPRequest, tile: TileCoordinate?) -> Reply {
        let headers = Self.imageHeaders(etag: TileKey(version: photo.version, tile: tile).entityTag,
                                        cacheControl: caching.cacheControl(request, version: photo.version))
        if !library.keepsImages, case .built(let path) = miss {
            // No memory cache configured: the built pyramid is sent straight from disk (sendfile).
            return .response(HTTPResponse(headers: headers, body: .file(path: path)))
        }
        let work: @Sendable () throws -> HTTPResponse = { [library, logger, renderFailures] in
            do {
                let bytes = try library.image(of: photo, tile: tile)
                return HTTPResponse(headers: headers, body: .bytes(bytes))
            } catch ImagingError.noSuchTile {
                throw Self.noSuchTile(request)
            } catch let error as ImagingError {
                // A deleted or unreadable file fails every tile asked of it: one warning per
                // photo version (the rest at debug level), and a rescan to notice it is gone.
                let fields = [("photo", String(photo.id)), ("file", photo.sourcePath), ("path", request.path), ("error", "\(error)")]
                if renderFailures.first(photo.version) {
                    logger.warning("cannot render; further failures of this photo are logged at debug level", fields)
                    library.requestRescan()
                } else {
                    logger.debug("cannot render", fields)
                }
                // The client learns what went wrong, never where on the server.
                throw HTTPError(.notFound, ClientText.photoError(error.description, of: photo))
            }
        }
        guard miss == .rendered else { return .offload(work) }
        // No pyramid yet: this is a render from the source, seconds of CPU for a large photo.
        // They wait their turn per photo and per client, without holding a thread meanwhile.
        return .offloadCapped([WorkCap(key: "photo \(photo.id)", limit: rendersPerPhoto),
                               WorkCap(key: "client \(request.remoteAddress)", limit: rendersPerClient)], work)
    }

    /// Photo versions seen failing to render.
    final class RenderFailures: Sendable {
        private let seen = Mutex<Set<String>>([])
        /// True the first time `version` is reported.
        func first(_ version: String) -> Bool { seen.withLock { $0.insert(version).inserted } }
    }

    func find(_ request: HTTPRequest) throws -> Photo {
        guard let id = PhotoPath.id(request.parameters), let photo = library.photo(id) else { throw Self.noSuchPhoto(request) }
        return photo
    }

    private static func noSuchPhoto(_ request: HTTPRequest) -> HTTPError {
        HTTPError(.notFound, "There is no photo at \(request.path).")
    }

    /// No image of a failed photo exists or will: 404, with the reason the photo's JSON gives.
    private static func cannotBeShown(_ photo: Photo) -> HTTPError {
        HTTPError(.notFound, photo.error.map { ClientText.photoError($0, of: photo) } ?? "This photo cannot be shown.")
    }

    private static func noSuchTile(_ request: HTTPRequest) -> HTTPError {
        HTTPError(.notFound, "There is no tile at \(request.path): outside the photo's pyramid.")
    }
}
