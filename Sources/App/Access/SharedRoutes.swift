import Access
import HTTP
import Library

/// The API a share link's holder uses, under `/s/{token}`: the same routes as the library's,
/// scoped to what the link shows. Each rule (`Rule.Kind.share`) refuses an expired or revoked
/// link, a photo the link does not show and a part it does not allow, all as 404; the handlers
/// answer with every path and IIIF id under the link's prefix, so a viewer given the link's
/// `info.json` or manifest asks for everything through the link.
struct SharedRoutes<Photos: PhotoBrowsing & ImageServing>: Sendable {
    let control: AccessControl
    let photos: PhotoRoutes<Photos>
    let iiif: IIIFRoutes<Photos>
    /// Whether the server lets originals be downloaded at all.
    let downloadOriginals: Bool
    /// Albums (collections), for what an album's link shows; nil: such links show nothing.
    let albums: (any PhotoCollections)?

    /// What the link of the request's `:token` shows (the rule let it through, so it is live).
    func view(_ request: HTTPRequest) throws -> PhotoView {
        guard let key = request.parameters["token"].flatMap(TokenKey.init), let share = try control.share(key) else {
            throw HTTPError(.notFound, "This link does not exist: it was revoked, or never made.")
        }
        return try PhotoView.shared(share, downloadOriginals: downloadOriginals) { id in
            try albums?.members(of: id).map { (ids: $0, order: try albums?.ownOrder(of: id)) }
        }
    }

    func register(on router: inout Router) {
        let view = control.rule(.share(.view, photo: false))
        let photo = control.rule(.share(.view, photo: true))
        let images = WorkLanes.images, catalog = WorkLanes.catalog
        router.get("/s/:token/photos", lane: catalog, access: view) { request in try photos.list(request, view: self.view(request)) }
        router.get("/s/:token/photos/summary", lane: catalog, access: view) { request in
            try photos.summaryResponse(request, view: self.view(request))
        }
        router.get("/s/:token/photos/events", lane: catalog, access: view) { request in try events(request) }
        router.get("/s/:token/photos/:id", lane: catalog, access: photo) { request in try photos.one(request, view: self.view(request)) }
        router.addReply(.GET, "/s/:token/photos/:id/thumbnail.jpg", lane: images, access: photo) { request in
            try photos.image(request, tile: nil)
        }
        router.addReply(.GET, "/s/:token/photos/:id/tiles/:z/:x/:y.jpg", lane: images, access: photo) { request in
            guard let tile = PhotoPath.tile(request.parameters) else {
                throw HTTPError(.notFound, "There is no tile at \(request.path): outside the photo's pyramid.")
            }
            return try photos.image(request, tile: tile)
        }
        router.get("/s/:token/photos/:id/original", lane: images, access: control.rule(.share(.download, photo: true))) { request in
            // Where the photo was taken goes with it only when the link says so.
            try photos.original(request, keepsLocation: self.view(request).showLocation)
        }
        router.add(.GET, "/s/:token/photos/:id/image.dzi", execution: .inline, access: photo) { request in
            try photos.deepZoomDescriptor(request)
        }
        router.addReply(.GET, "/s/:token/photos/:id/image_files/:level/:tile.jpg", lane: images, access: photo) { request in
            try photos.deepZoomTile(request)
        }
        router.add(.GET, "/s/:token/photos/:id/manifest.json", execution: .inline, access: photo) { request in
            try iiif.photoManifest(request, prefix: try self.view(request).prefix)
        }
        router.get("/s/:token/iiif/manifest.json", lane: catalog, access: view) { request in
            try iiif.libraryManifest(request, view: self.view(request))
        }
        router.add(.GET, "/s/:token/iiif/3/:id", execution: .inline, access: photo) { request in
            try iiif.redirect(request, prefix: try self.view(request).prefix)
        }
        router.add(.GET, "/s/:token/iiif/3/:id/info.json", execution: .inline, access: photo) { request in
            try iiif.information(request, prefix: try self.view(request).prefix)
        }
        router.addReply(.GET, "/s/:token/iiif/3/:id/:region/:size/:rotation/:file", lane: images, access: photo) { request in
            // The prefix is the path's own: `/s/` and the 43 characters of the token.
            try iiif.image(request, prefix: String(request.path.utf8.prefix(3 + AccessToken.length))!)
        }
        for pattern in ["/s/:token/iiif/3/:id/:region/:size/:rotation/:file", "/s/:token/iiif/3/:id/info.json", "/s/:token/iiif/3/:id",
                        "/s/:token/iiif/manifest.json", "/s/:token/photos/:id/manifest.json",
                        "/s/:token/photos/:id/image_files/:level/:tile.jpg", "/s/:token/photos/:id/image.dzi"] {
            // A preflight carries no credentials and answers no data.
            router.add(.OPTIONS, pattern, execution: .inline, access: control.rule(.open)) { request in CrossOrigin.preflight(request) }
        }
    }

    /// The link's live stream: `reset` whenever its photos change, nothing about any other;
    /// it ends with the link (and its password session).
    func events(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let key = request.parameters["token"].flatMap(TokenKey.init), let share = try control.share(key) else {
            throw HTTPError(.notFound, "This link does not exist: it was revoked, or never made.")
        }
        let control = self.control, library = photos.library, albums = self.albums
        let target = share.target
        return try control.bound(photos.events.response(shared: PhotoLiveEvents.SharedScope(
            contains: { control.isShared($0, target) },
            total: {
                switch target {
                case .folder(let id): library.album(id)?.count ?? 0
                case .album(let id):
                    library.ordered(.id, scope: .members((try? albums?.members(of: id)) ?? []))?.photos.count ?? 0
                case .photo(let id): library.photo(id) == nil ? 0 : 1
                }
            },
            album: { if case .album(let id) = target { id } else { nil } }())), to: request)
    }
}

extension CommentService {
    /// A share link's comment routes, when the link allows comments: read, post (under the
    /// name the holder types, never an account's; a signed-in holder's under their account)
    /// and follow, for the photos the link shows.
    func registerShared(on router: inout Router, control: AccessControl) {
        let lane = WorkLanes.comments
        let rule = control.rule(.share(.comments, photo: true))
        @Sendable func prefix(_ request: HTTPRequest) -> String { "/s/" + (request.parameters["token"] ?? "") }
        router.get("/s/:token/photos/:id/comments", lane: lane, access: rule) { [self] request in
            try listComments(request, prefix: prefix(request))
        }
        router.post("/s/:token/photos/:id/comments", maxBodyBytes: Self.maxPostBytes, lane: lane, access: rule) { [self] request in
            try postComment(request, poster: try control.commentPoster(of: request), prefix: prefix(request))
        }
        router.get("/s/:token/photos/:id/comments/events", lane: lane, access: rule) { [self] request in
            try control.bound(openEvents(request), to: request)
        }
        router.get("/s/:token/photos/:id/comments/:cid", lane: lane, access: rule) { [self] request in try showComment(request) }
    }
}
