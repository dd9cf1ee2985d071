import HTTP
import IIIF
import Imaging
import Library
import Observability

/// The IIIF Image API 3.0 (level 2) and Presentation API 3.0 over the photo library:
///
/// - `GET /iiif/3/:id` → 303 to its info.json
/// - `GET /iiif/3/:id/info.json`: the image information, ids absolute
/// - `GET /iiif/3/:id/:region/:size/:rotation/:quality.:format`: an image
/// - `GET /iiif/manifest.json` and `GET /photos/:id/manifest.json`: Presentation manifests
///
/// Requests that name a pyramid tile exactly are answered with that tile's bytes; every other
/// image is rendered from the pyramid (see `ImageServing.rendition`). Every answer, errors
/// included, allows any origin, and OPTIONS answers CORS preflights. Generic over the library's
/// roles, as `PhotoRoutes`, so a tile from memory costs no dynamic dispatch.
struct IIIFRoutes<Photos: PhotoBrowsing & ImageServing>: Sendable {
    let library: Photos
    let tileSize: Int
    /// The thumbnails' size, for the manifests' thumbnails.
    let thumbnailSize: Int
    let limits: ImageLimits
    let base: ServiceBase
    let logger: Logger
    /// Hot tiles' answers, shared with the photo routes.
    let answers: TileAnswers<Photos>
    /// Longest one rendition may take (`iiifRenderSeconds`).
    var renderSeconds: Double = 30
    /// Gives memory back after a burst of renditions.
    var memory = RenderMemory()
    /// Who may use each route.
    var rules = RouteRules.none
    /// `private` everywhere on a private library.
    var caching = CachePolicy.public

    /// The Image API's prefix: `/iiif/3`.
    static var prefix: String { "/iiif/3" }

    func register(on router: inout Router) {
        let library = rules(.library)
        router.addReply(.GET, "/iiif/3/:id/:region/:size/:rotation/:file", lane: WorkLanes.images, access: library) { request in try image(request) }
        router.add(.GET, "/iiif/3/:id/info.json", execution: .inline, access: library) { request in try information(request) }
        router.add(.GET, "/iiif/3/:id", execution: .inline, access: library) { request in try redirect(request) }
        router.get("/iiif/manifest.json", lane: WorkLanes.catalog, access: library) { request in try libraryManifest(request) }
        router.add(.GET, "/photos/:id/manifest.json", execution: .inline, access: library) { request in try photoManifest(request) }
        for pattern in ["/iiif/3/:id/:region/:size/:rotation/:file", "/iiif/3/:id/info.json", "/iiif/3/:id",
                        "/iiif/manifest.json", "/photos/:id/manifest.json"] {
            // A preflight carries no credentials and answers no data.
            router.add(.OPTIONS, pattern, execution: .inline, access: rules(.open)) { request in CrossOrigin.preflight(request) }
        }
    }

    /// 303 to the info.json, as the specification recommends for the base URI.
    func redirect(_ request: HTTPRequest, prefix: String = "") throws -> HTTPResponse {
        let photo = try find(request)
        let location = try base.origin(of: request) + prefix + Self.prefix + "/\(photo.id)/info.json"
        return HTTPResponse(status: .seeOther, headers: HTTPHeaders([("Location", location), CrossOrigin.allowOrigin]))
    }

    /// The image information of one photo.
    /// Under a share link (`prefix` `/s/{token}`) its id is under the link too, so a viewer given
    /// the link's info.json asks for every tile through the link.
    func information(_ request: HTTPRequest, prefix: String = "") throws -> HTTPResponse {
        let photo = try find(request)
        guard let pyramid = photo.pyramid(tileSize: tileSize) else { throw Self.unknownSize(photo) }
        let id = try base.origin(of: request) + prefix + Self.prefix + "/\(photo.id)"
        let levels = (0...pyramid.maxZoom).map { pyramid.levelSize($0)! }
        let info = ImageInformation(id: id, width: photo.width, height: photo.height, tileSize: tileSize,
                                    scaleFactors: (0...pyramid.maxZoom).map { 1 << $0 }, sizes: levels, limits: limits)
        var headers = HTTPHeaders([CrossOrigin.allowOrigin, ("Link", "<\(ImageInformation.profileDocument)>;rel=\"profile\"")])
        headers.add("Cache-Control", caching.cacheControl(request, version: photo.version))
        return document(info.json, context: ImageInformation.context, request, headers: headers)
    }

    /// JSON-LD when the client names `application/ld+json`, plain JSON otherwise; a strong ETag
    /// of the body and its type, answering If-None-Match with 304.
    func document(_ body: String, context: String, _ request: HTTPRequest, headers: HTTPHeaders) -> HTTPResponse {
        let asked = AcceptPreference.match(of: "application/ld+json", in: AcceptPreference.parse(request.headers["Accept"] ?? ""))
        let contentType = asked.specificity == 2 && asked.q > 0 ? "application/ld+json;profile=\"\(context)\"" : "application/json"
        let bytes = Array(body.utf8)
        let etag = "\"" + ContentHash.hex(of: bytes + Array(contentType.utf8)) + "\""
        var headers = headers
        headers.add("ETag", etag)
        headers.add("Vary", "Accept, Accept-Encoding")
        if PhotoCaching.notModified(request, etag: etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", contentType)
        return HTTPResponse(headers: headers, body: .bytes(bytes))
    }

    /// The photo named by `:id`, or a 404 a page on any site can read. A photo that cannot be
    /// shown has no image service either.
    func find(_ request: HTTPRequest) throws -> Photo {
        guard let id = PhotoPath.id(request.parameters), let photo = library.photo(id) else {
            throw CrossOrigin.problem(.notFound, "There is no image at \(request.path).")
        }
        if photo.status == .failed { throw CrossOrigin.problem(.notFound, photo.error.map { ClientText.photoError($0, of: photo) } ?? "This photo cannot be shown.") }
        return photo
    }

    static func unknownSize(_ photo: Photo) -> HTTPError {
        CrossOrigin.problem(.notFound, "The size of photo \(photo.id) is not known yet.")
    }
}
