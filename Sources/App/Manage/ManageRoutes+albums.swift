import Foundation
import HTTP
import Library

/// Albums, the collections people make; none of these touches a file:
///
///     POST   /albums                  {"title":"Rome"} → 201 the album (last among the albums)
///     PATCH  /albums/{id}             {"title"?, "cover"?: photo id | null, "position"?: n,
///                                      "order"?: [photo ids] | "taken" | "custom"} → the album
///     DELETE /albums/{id}             → 204; its photos stay in the library
///     POST   /albums/{id}/photos      {"ids":[…], "position"?: n} → the album, the photos added after its
///                                      last, or put at `position` of its own order
///     DELETE /albums/{id}/photos      {"ids":[…]} → the album, the photos taken out of it only
///
/// The reads (`GET /albums`, `/albums/{id}`) are `PhotoRoutes`'.
extension ManageRoutes {
    func registerAlbums(on router: inout Router, rules: RouteRules) {
        let lane = WorkLanes.uploads
        let manage = rules(.manage)
        router.post("/albums", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in
            try allowed(request) { try createAlbum(request) }
        }
        router.add(.PATCH, "/albums/:id", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in
            try allowed(request) { try changeAlbum(request) }
        }
        router.delete("/albums/:id", lane: lane, access: manage) { request in try allowed(request) { try deleteAlbum(request) } }
        router.post("/albums/:id/photos", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in
            try allowed(request) { try changeMembers(request, adding: true) }
        }
        router.add(.DELETE, "/albums/:id/photos", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in
            try allowed(request) { try changeMembers(request, adding: false) }
        }
    }

    private func createAlbum(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.decode(NewAlbum.self, request)
        let album = try store.createAlbum(title: try Self.title(body.title), now: now())
        logger.info("album made", [("album", String(album.id))])
        return try HTTPResponse.json(record(of: album), status: .created,
                                     headers: ["Location": "/albums/\(album.id)", "Cache-Control": "no-store"])
    }

    private func changeAlbum(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try Self.albumID(request)
        let body = try Self.decode(AlbumPatch.self, request)
        if case .some(.some(let cover)) = body.cover {
            guard try store.album(id)?.photoIDs.contains(cover) ?? true, library.photo(cover) != nil else {
                throw HTTPError(.badRequest, "The cover must be one of the album's photos; \(cover) is not.")
            }
        }
        if let position = body.position, position < 0 {
            throw HTTPError(.badRequest, "position is the album's place among the albums, 0 first.")
        }
        let change = AlbumChange(title: try body.title.map(Self.title), cover: body.cover, position: body.position)
        guard var album = try store.updateAlbum(id, change) else { throw Self.noAlbum(request) }
        if let order = body.order {
            guard let ordered = try reorder(album, order) else { throw Self.noAlbum(request) }
            album = ordered
        }
        return try HTTPResponse.json(record(of: album), headers: ["Cache-Control": "no-store"])
    }

    /// The album in the order asked for: its photos in the order given (each of its photos at most
    /// once), its own order as it was kept, or by date taken.
    private func reorder(_ album: PhotoAlbum, _ order: AlbumOrderRequest) throws -> PhotoAlbum? {
        switch order {
        case .photos(let ids):
            guard ids.count <= 10_000 else { throw HTTPError(.contentTooLarge, "At most 10000 photos at once.") }
            guard Set(ids).count == ids.count else {
                throw HTTPError(.unprocessableContent, "order names each photo once; it names one twice.")
            }
            let members = Set(album.photoIDs)
            if let stranger = ids.first(where: { !members.contains($0) }) {
                throw HTTPError(.unprocessableContent, "order names the album's own photos; \(stranger) is not one of them.")
            }
            return try store.orderPhotos(ids, in: album.id)
        case .by(.custom): return try store.orderPhotos([], in: album.id)
        case .by(.taken): return try store.orderPhotosByDate(in: album.id)
        }
    }

    private func deleteAlbum(_ request: HTTPRequest) throws -> HTTPResponse {
        guard try store.deleteAlbum(try Self.albumID(request)) else { throw Self.noAlbum(request) }
        return HTTPResponse(status: .noContent)
    }

    private func changeMembers(_ request: HTTPRequest, adding: Bool) throws -> HTTPResponse {
        let id = try Self.albumID(request)
        let body = try Self.decode(AlbumPhotos.self, request)
        let ids = body.ids
        guard ids.count <= 10_000 else { throw HTTPError(.contentTooLarge, "At most 10000 photos at once.") }
        let album: PhotoAlbum?
        if adding {
            if let missing = ids.first(where: { library.photo($0) == nil }) { throw HTTPError(.notFound, "There is no photo \(missing).") }
            if let position = body.position {
                guard position >= 0 else { throw HTTPError(.badRequest, "position is a place in the album's own order, 0 first.") }
                album = try store.placePhotos(ids, in: id, at: position, now: now())
            } else {
                album = try store.addPhotos(ids, to: id, now: now())
            }
        } else {
            album = try store.removePhotos(ids, from: id)
        }
        guard let album else { throw Self.noAlbum(request) }
        return try HTTPResponse.json(record(of: album), headers: ["Cache-Control": "no-store"])
    }

    private func record(of album: PhotoAlbum) -> AlbumRecord {
        AlbumRecord(album, photos: library.ordered(.taken, scope: .members(Set(album.photoIDs)))?.photos ?? [])
    }

    /// A title as kept: trimmed, 1 to `PhotoAlbum.maxTitleLength` characters.
    static func title(_ text: String) throws -> String {
        let title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.count <= PhotoAlbum.maxTitleLength, !title.contains(where: \.isNewline) else {
            throw HTTPError(.unprocessableContent, "An album's title is one line of 1 to \(PhotoAlbum.maxTitleLength) characters.")
        }
        return title
    }

    static func albumID(_ request: HTTPRequest) throws -> Int {
        try PhotoPath.listID(request, "album")
    }

    static func noAlbum(_ request: HTTPRequest) -> HTTPError {
        HTTPError(.notFound, "There is no album at \(request.path).")
    }
}
