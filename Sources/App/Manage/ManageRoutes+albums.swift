import Foundation
import HTTP
import Library

/// Albums, the collections people make; none of these touches a file:
///
///     POST   /albums                  {"title":"Rome"} → 201 the album (last among the albums)
///     PATCH  /albums/{id}             {"title"?, "cover"?: photo id | null, "position"?: n} → the album
///     DELETE /albums/{id}             → 204; its photos stay in the library
///     POST   /albums/{id}/photos      {"ids":[…]} → the album, the photos added after its last
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
        guard let album = try store.updateAlbum(id, change) else { throw Self.noAlbum(request) }
        return try HTTPResponse.json(record(of: album), headers: ["Cache-Control": "no-store"])
    }

    private func deleteAlbum(_ request: HTTPRequest) throws -> HTTPResponse {
        guard try store.deleteAlbum(try Self.albumID(request)) else { throw Self.noAlbum(request) }
        return HTTPResponse(status: .noContent)
    }

    private func changeMembers(_ request: HTTPRequest, adding: Bool) throws -> HTTPResponse {
        let id = try Self.albumID(request)
        let ids = try Self.decode(PhotoSelection.self, request).ids
        guard ids.count <= 10_000 else { throw HTTPError(.contentTooLarge, "At most 10000 photos at once.") }
        let album: PhotoAlbum?
        if adding {
            if let missing = ids.first(where: { library.photo($0) == nil }) { throw HTTPError(.notFound, "There is no photo \(missing).") }
            album = try store.addPhotos(ids, to: id, now: now())
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
        try PhotoRoutes.listID(request, "album")
    }

    static func noAlbum(_ request: HTTPRequest) -> HTTPError {
        HTTPError(.notFound, "There is no album at \(request.path).")
    }
}

struct NewAlbum: Decodable { var title: String }

/// The body of `PATCH /albums/{id}`: `cover` absent and `cover: null` mean different things.
struct AlbumPatch: Decodable {
    var title: String?
    var cover: Int??
    var position: Int?

    enum Keys: String, CodingKey { case title, cover, position }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        if c.contains(.cover) { cover = .some(try c.decodeNil(forKey: .cover) ? nil : try c.decode(Int.self, forKey: .cover)) }
        position = try c.decodeIfPresent(Int.self, forKey: .position)
    }
}
