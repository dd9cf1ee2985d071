import Access
import Foundation
import HTTP
import Library

/// Share links, made and revoked by the owner, opened by whoever holds one:
///
/// - `POST /shares` `{"album": id}`, `{"folder": id}` or `{"photo": id}`, with `"expires"` (RFC 3339, or null for
///   never; absent: the configured default), `"password"` (at least 10 characters, as an
///   account's: 422 otherwise), `"download"` (false), `"comments"` (true), `"location"` (false),
///   `"upload"` (false; a folder's link only) → 201 the link
/// - `GET /shares` → `{"shares":[…]}`, newest first; `DELETE /shares/{id}` → 204, at once on every replica
/// - `GET /s/{token}/share` → what the link shows (only whether it needs a password, until it is given)
/// - `POST /s/{token}/unlock` `{"password"}` → 204 with a cookie that opens the link in this browser
struct ShareRoutes: Sendable {
    let control: AccessControl
    let library: any PhotoBrowsing
    /// Albums (collections), to check and describe an album's link.
    let albums: any PhotoCollections

    func register(on router: inout Router) {
        let lane = WorkLanes.access
        router.post("/shares", maxBodyBytes: SessionRoutes.maxBodyBytes, lane: lane, access: control.rule(.owner)) { request in
            try create(request)
        }
        router.get("/shares", lane: lane, access: control.rule(.owner)) { request in try list(request) }
        router.delete("/shares/:id", lane: lane, access: control.rule(.owner)) { request in try revoke(request) }
        router.get("/s/:token/share", lane: lane, access: control.rule(.share(.door, photo: false))) { request in try describe(request) }
        router.post("/s/:token/unlock", maxBodyBytes: SessionRoutes.maxBodyBytes, lane: lane,
                    access: control.rule(.share(.door, photo: false))) { request in try unlock(request) }
    }

    /// A link as its owner sees it.
    struct Record: Encodable {
        let share: Share
        let url: String
        let now: Int

        enum Keys: String, CodingKey { case id, token, url, album, folder, photo, expires, expired, password, download, comments, location, upload, created }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(share.id, forKey: .id)
            try c.encode(share.token, forKey: .token)
            try c.encode(url, forKey: .url)
            let (album, folder, photo): (Int?, Int?, Int?) = switch share.target {
            case .album(let id): (id, nil, nil)
            case .folder(let id): (nil, id, nil)
            case .photo(let id): (nil, nil, id)
            }
            try c.encode(album, forKey: .album)
            try c.encode(folder, forKey: .folder)
            try c.encode(photo, forKey: .photo)
            if let expires = share.expiresAt { try c.encode(ShareRoutes.rfc3339(expires), forKey: .expires) } else { try c.encodeNil(forKey: .expires) }
            try c.encode(!share.isLive(at: now), forKey: .expired)
            try c.encode(share.hasPassword, forKey: .password)
            try c.encode(share.download, forKey: .download)
            try c.encode(share.comments, forKey: .comments)
            try c.encode(share.location, forKey: .location)
            try c.encode(share.upload, forKey: .upload)
            try c.encode(ShareRoutes.rfc3339(share.createdAt), forKey: .created)
        }
    }

    struct Records: Encodable {
        let shares: [Record]
    }

    /// The body of `POST /shares`; `expires` absent and `expires: null` mean different things.
    struct Request: Decodable {
        var album: Int?
        var folder: Int?
        var photo: Int?
        /// nil: absent (the default lifetime); `.some(nil)`: never.
        var expires: String??
        var password: String?
        var download: Bool?
        var comments: Bool?
        var location: Bool?
        var upload: Bool?

        enum Keys: String, CodingKey { case album, folder, photo, expires, password, download, comments, location, upload }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            album = try c.decodeIfPresent(Int.self, forKey: .album)
            folder = try c.decodeIfPresent(Int.self, forKey: .folder)
            photo = try c.decodeIfPresent(Int.self, forKey: .photo)
            if c.contains(.expires) { expires = .some(try c.decodeNil(forKey: .expires) ? nil : try c.decode(String.self, forKey: .expires)) }
            password = try c.decodeIfPresent(String.self, forKey: .password)
            download = try c.decodeIfPresent(Bool.self, forKey: .download)
            comments = try c.decodeIfPresent(Bool.self, forKey: .comments)
            location = try c.decodeIfPresent(Bool.self, forKey: .location)
            upload = try c.decodeIfPresent(Bool.self, forKey: .upload)
        }
    }

    func create(_ request: HTTPRequest) throws -> HTTPResponse {
        guard case .user(let signedIn) = try control.visitor(of: request), let owner = try control.store.user(named: signedIn.name) else {
            return control.unauthorized(request)
        }
        let body = try SessionRoutes.decode(Request.self, request)
        let target: Share.Target
        switch (body.album, body.folder, body.photo) {
        case (let album?, nil, nil):
            guard try albums.album(album) != nil else { throw HTTPError(.badRequest, "There is no album \(album) to share.") }
            target = .album(album)
        case (nil, let folder?, nil):
            guard library.album(folder) != nil else { throw HTTPError(.badRequest, "There is no folder \(folder) to share.") }
            target = .folder(folder)
        case (nil, nil, let photo?):
            guard library.photo(photo) != nil else { throw HTTPError(.badRequest, "There is no photo \(photo) to share.") }
            target = .photo(photo)
        default:
            throw HTTPError(.badRequest, "Say what to share: {\"album\": id}, {\"folder\": id} or {\"photo\": id}, one of them.")
        }
        let now = control.wallNow()
        let expiresAt: Int?
        switch body.expires {
        case nil: expiresAt = control.defaultShareSeconds.map { now + $0 }
        case .some(nil): expiresAt = nil
        case .some(let text?):
            guard let date = Self.parseRFC3339(text) else {
                throw HTTPError(.badRequest, "expires must be a date and time like 2027-01-31T18:00:00Z (RFC 3339), or null for never.")
            }
            expiresAt = date
        }
        if let password = body.password {
            // The account rule, one rule: a link's password guards the same photos.
            do { try Credentials.checkPassword(password) } catch {
                throw HTTPError(.unprocessableContent, "A link's password follows the rule for accounts' passwords. " + error.description)
            }
        }
        let share: Share
        do {
            share = try control.store.createShare(ShareRequest(target: target, expiresAt: expiresAt, password: body.password,
                                                               download: body.download ?? false, comments: body.comments ?? true,
                                                               location: body.location ?? false, upload: body.upload ?? false), by: owner)
        } catch let error as AccessError {
            throw HTTPError(.badRequest, error.description)
        }
        control.logger.info("share link made", [("share", String(share.id)), ("user", owner.name)])
        return try HTTPResponse.json(Record(share: share, url: try url(of: share, request), now: now), status: .created,
                                     headers: ["Location": "/shares/\(share.id)", "Cache-Control": "no-store"])
    }

    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        let now = control.wallNow()
        let shares = try control.store.shares().map { Record(share: $0, url: try url(of: $0, request), now: now) }
        return try HTTPResponse.json(Records(shares: shares), headers: ["Cache-Control": "no-store"])
    }

    func revoke(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let id = request.parameters.decimal("id", at: 0), try control.revokeShare(id: id) else {
            throw HTTPError(.notFound, "There is no share link at \(request.path).")
        }
        control.logger.info("share link revoked", [("share", String(id))])
        return HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"])
    }

    /// What a link's holder is shown about it.
    struct Description: Encodable {
        /// The album or folder shared.
        struct ListPart: Encodable {
            let id: Int
            let title: String
            let count: Int
        }

        let share: Share
        let unlocked: Bool
        let base: String
        let album: ListPart?
        let folder: ListPart?

        enum Keys: String, CodingKey { case base, password, unlocked, expires, album, folder, photo, download, comments, location, upload }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(base, forKey: .base)
            try c.encode(share.hasPassword, forKey: .password)
            try c.encode(unlocked, forKey: .unlocked)
            if let expires = share.expiresAt { try c.encode(ShareRoutes.rfc3339(expires), forKey: .expires) } else { try c.encodeNil(forKey: .expires) }
            // Nothing of what is shared before its password.
            guard unlocked else { return }
            try c.encode(album, forKey: .album)
            try c.encode(folder, forKey: .folder)
            if case .photo(let id) = share.target { try c.encode(id, forKey: .photo) } else { try c.encodeNil(forKey: .photo) }
            try c.encode(share.download, forKey: .download)
            try c.encode(share.comments, forKey: .comments)
            try c.encode(share.location, forKey: .location)
            try c.encode(share.upload, forKey: .upload)
        }
    }

    func describe(_ request: HTTPRequest) throws -> HTTPResponse {
        let share = try sharedLink(request)
        let unlocked = try !share.hasPassword || control.unlocked(share, request)
        var album: Description.ListPart?, folder: Description.ListPart?
        switch share.target {
        case .album(let id):
            if let found = try albums.album(id) {
                let count = library.ordered(.id, scope: .members(Set(found.photoIDs)))?.photos.count ?? 0
                album = Description.ListPart(id: found.id, title: found.title, count: count)
            }
        case .folder(let id):
            if let found = library.album(id) { folder = Description.ListPart(id: found.id, title: found.title, count: found.count) }
        case .photo: break
        }
        return try HTTPResponse.json(Description(share: share, unlocked: unlocked, base: "/s/" + share.token, album: album, folder: folder),
                                     headers: ["Cache-Control": "no-store"])
    }

    struct Unlock: Decodable {
        let password: String
    }

    func unlock(_ request: HTTPRequest) throws -> HTTPResponse {
        let share = try sharedLink(request)
        let body = try SessionRoutes.decode(Unlock.self, request)
        guard share.hasPassword else { return HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"]) }
        let keys = control.throttleKeys(request, "share:\(share.id)")
        if let refusal = control.throttled(keys, what: "link passwords") { throw refusal }
        guard control.store.verifyPassword(body.password, of: share) else {
            control.throttle.fail(keys)
            throw HTTPError(.forbidden, "That is not the link's password.", headers: ["Cache-Control": "no-store"])
        }
        let token = try control.store.startSession(forShare: share)
        let lifetime = min(control.store.limits.lifetimeSeconds, share.expiresAt.map { $0 - control.wallNow() } ?? Int.max)
        return HTTPResponse(status: .noContent, headers: HTTPHeaders([
            ("Set-Cookie", control.cookies.set(control.cookies.shareName(share.id), token, seconds: lifetime)),
            ("Cache-Control", "no-store"),
        ]))
    }

    /// The link of the route's `:token` (the rule let it through, so it exists and is live).
    func sharedLink(_ request: HTTPRequest) throws -> Share {
        guard let key = request.parameters["token"].flatMap(TokenKey.init), let share = try control.share(key) else {
            throw HTTPError(.notFound, "This link does not exist: it was revoked, or never made.")
        }
        return share
    }

    /// The link's address: under `publicURL`, or the Host the owner used.
    func url(of share: Share, _ request: HTTPRequest) throws -> String {
        try ServiceBase(publicURL: control.publicURL).origin(of: request) + "/s/" + share.token
    }

    static func rfc3339(_ seconds: Int) -> String {
        PhotoRecord.date(seconds)
    }

    /// Unix seconds of an RFC 3339 date-time (`2027-01-31T18:00:00Z`, `…+01:00`, fractions allowed).
    static func parseRFC3339(_ text: String) -> Int? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return Int(date.timeIntervalSince1970.rounded(.down)) }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text).map { Int($0.timeIntervalSince1970.rounded(.down)) }
    }
}
