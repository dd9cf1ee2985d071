import HTTP
import Library

/// GET /albums, /albums/:id and /albums/:id/summary: the folders of the photos folder as albums.
extension PhotoRoutes {
    func registerAlbums(on router: inout Router) {
        router.get("/albums", lane: WorkLanes.catalog) { request in albums(request) }
        router.get("/albums/:id/summary", lane: WorkLanes.catalog) { request in
            try summaryResponse(request, scope: .album(try albumID(request)))
        }
        router.get("/albums/:id", lane: WorkLanes.catalog) { request in try album(request) }
    }

    /// `{"albums":[Album…]}`, by folder name.
    func albums(_ request: HTTPRequest) -> HTTPResponse {
        let albums = library.catalog.albums()
        var body = "{\"albums\":["
        for (i, album) in albums.enumerated() {
            if i > 0 { body += "," }
            body += Self.albumMembers(album) + "}"
        }
        return json(body + "]}", request)
    }

    /// The album's members, then a page of its photos as `GET /photos` pages the library.
    func album(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try albumID(request)
        guard let album = library.catalog.album(id) else { throw HTTPError(.notFound, "There is no album at \(request.path).") }
        return try listResponse(request, scope: .album(id), base: "/albums/\(id)", head: String(Self.albumMembers(album).dropFirst()) + ",")
    }

    /// `{"id":…,"title":…,"path":…,"count":…,"cover":{…},"from":…,"to":…,"link":…` (open: the caller closes it).
    static func albumMembers(_ album: Album) -> String {
        let cover = album.cover
        return "{\"id\":\(album.id),\"title\":\(PhotoDetails.quoted(album.title)),\"path\":\(PhotoDetails.quoted(album.path))"
            + ",\"count\":\(album.count),\"cover\":{\"id\":\(cover.id),\"thumbnail\":\"/photos/\(cover.id)/thumbnail.jpg?v=\(cover.version)\"}"
            + ",\"from\":\"\(album.first.taken)\",\"to\":\"\(album.last.taken)\",\"link\":\"/albums/\(album.id)\""
    }

    func albumID(_ request: HTTPRequest) throws -> Int {
        guard let text = request.parameters["id"], !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let id = Int(text) else {
            throw HTTPError(.notFound, "There is no album at \(request.path): album ids are whole numbers.")
        }
        return id
    }
}
