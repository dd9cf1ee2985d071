import HTTP
import Library

/// GET /albums, /albums/:id and /albums/:id/summary: the folders of the photos folder as albums.
extension PhotoRoutes {
    func registerAlbums(on router: inout Router) {
        let library = rules(.library)
        router.get("/albums", lane: WorkLanes.catalog, access: library) { request in try albums(request) }
        router.get("/albums/:id/summary", lane: WorkLanes.catalog, access: library) { request in
            try summaryResponse(request, scope: .album(try albumID(request)))
        }
        router.get("/albums/:id", lane: WorkLanes.catalog, access: library) { request in try album(request) }
    }

    /// `{"albums":[Album…]}`, by folder name.
    func albums(_ request: HTTPRequest) throws -> HTTPResponse {
        try json(AlbumList(albums: library.albums().map(AlbumRecord.init)), request)
    }

    /// The album's members, then a page of its photos as `GET /photos` pages the library.
    func album(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try albumID(request)
        guard let album = library.album(id) else { throw HTTPError(.notFound, "There is no album at \(request.path).") }
        return try listResponse(request, scope: .album(id), base: "/albums/\(id)", album: album, view: libraryView)
    }

    func albumID(_ request: HTTPRequest) throws -> Int {
        guard let text = request.parameters["id"], !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let id = Int(text) else {
            throw HTTPError(.notFound, "There is no album at \(request.path): album ids are whole numbers.")
        }
        return id
    }
}
