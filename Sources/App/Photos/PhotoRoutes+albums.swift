import HTTP
import Library

/// GET /albums, /albums/:id and /albums/:id/summary: albums, the collections people make (the
/// changes are `ManageRoutes`'), and the IIIF manifests of albums and folders.
extension PhotoRoutes {
    func registerAlbums(on router: inout Router) {
        let library = rules(.library)
        router.get("/albums", lane: WorkLanes.catalog, access: library) { request in try albumList(request) }
        router.get("/albums/:id/summary", lane: WorkLanes.catalog, access: library) { request in
            try summaryResponse(request, scope: photoScope(of: try storedAlbum(request), request))
        }
        router.get("/albums/:id", lane: WorkLanes.catalog, access: library) { request in try album(request) }
    }

    /// `GET /albums/:id/manifest.json` and `GET /folders/:id/manifest.json`: IIIF Presentation
    /// manifests of an album's and a folder's ready photos.
    func registerListManifests(on router: inout Router, iiif: IIIFRoutes<Photos>) {
        let library = rules(.library)
        router.get("/albums/:id/manifest.json", lane: WorkLanes.catalog, access: library) { request in
            let album = try storedAlbum(request)
            return try iiif.listManifest(request, scope: photoScope(of: album, request), label: album.title,
                                         path: "/albums/\(album.id)/manifest.json")
        }
        router.get("/folders/:id/manifest.json", lane: WorkLanes.catalog, access: library) { request in
            let id = try PhotoPath.listID(request, "folder")
            guard let folder = self.library.album(id) else { throw CrossOrigin.problem(.notFound, "There is no folder at \(request.path).") }
            return try iiif.listManifest(request, scope: .album(id), label: folder.title, path: "/folders/\(id)/manifest.json")
        }
        for pattern in ["/albums/:id/manifest.json", "/folders/:id/manifest.json"] {
            // A preflight carries no credentials and answers no data.
            router.add(.OPTIONS, pattern, execution: .inline, access: rules(.open)) { request in CrossOrigin.preflight(request) }
        }
    }

    /// `{"albums":[Album…]}`, in the albums' order.
    func albumList(_ request: HTTPRequest) throws -> HTTPResponse {
        let albums = try albums?.albums() ?? []
        return try json(AlbumList(albums: albums.map { record(of: $0) }), request)
    }

    /// The album's members, then a page of its listed photos (in the album's order, or `?order=`).
    func album(_ request: HTTPRequest) throws -> HTTPResponse {
        let album = try storedAlbum(request)
        return try listResponse(request, scope: photoScope(of: album, request), base: "/albums/\(album.id)",
                                heading: record(of: album), view: libraryView)
    }

    /// An album's photos as a list: in its own order when it has one and `?order=` does not ask
    /// for another, else by date taken (or id).
    func photoScope(of album: PhotoAlbum, _ request: HTTPRequest) -> PhotoScope {
        album.photoOrder == .custom && request.query("order") == nil ? .sequence(album.photoIDs) : .members(Set(album.photoIDs))
    }

    func record(of album: PhotoAlbum) -> AlbumRecord {
        AlbumRecord(album, photos: library.ordered(.taken, scope: .members(Set(album.photoIDs)))?.photos ?? [])
    }

    /// The album of the route's `:id`; 404 when there is none.
    func storedAlbum(_ request: HTTPRequest) throws -> PhotoAlbum {
        let id = try PhotoPath.listID(request, "album")
        guard let album = try albums?.album(id) else { throw HTTPError(.notFound, "There is no album at \(request.path).") }
        return album
    }
}
