import Access
import HTTP
import POSIX
import Uploads

/// tus 1.0 at `/uploads/` (core, creation, creation-with-upload, termination, checksum,
/// expiration) and a plain multipart form at `/uploads/form`:
///
///     OPTIONS /uploads          what the server offers (Tus-Version, Tus-Extension, Tus-Max-Size …)
///     POST    /uploads          a new upload of Upload-Length bytes → 201, Location /uploads/{id}
///     HEAD    /uploads/{id}     Upload-Offset: how many bytes the server has
///     GET     /uploads/{id}     the same as JSON, with the photo once complete
///     PATCH   /uploads/{id}     the next bytes, at Upload-Offset
///     DELETE  /uploads/{id}     cancel: the bytes are deleted
///     POST    /uploads/form     multipart/form-data: each file part becomes a photo (`curl -F file=@a.jpg`)
///
/// The same under `/s/{token}/uploads/` for the holder of a share link that lets photos be
/// added to its album: into that album's folder only, and only that link's uploads.
///
/// Bodies stream to the upload's file in the data folder, never held whole; every route but
/// OPTIONS is for people allowed to change the library (`ManagePermission`).
struct UploadRoutes: Sendable {
    let service: UploadService
    /// Who may use each route: owners and members (`Rule.Kind.manage`).
    var rules = RouteRules.none
    /// The access control, for the routes under a share link that lets its holder add photos
    /// (`/s/{token}/uploads/`); without one, those routes are not there.
    var control: AccessControl? = nil

    /// Where a request adds photos: the library's `/uploads/`, or a share link's
    /// `/s/{token}/uploads/` (into its album only).
    struct Place: Sendable {
        /// Put before every path an answer holds: empty, or `/s/{token}`.
        var prefix = ""
        var link: UploadLink?

        static let library = Place()
    }

    func register(on router: inout Router) {
        let lane = WorkLanes.uploads
        let manage = rules(.manage)
        // Creation announces at most the limit; the body of one request can be no larger.
        let maxBody = service.limits.maxBytes
        // `/uploads/` as the protocol writes it, and `/uploads` too: a trailing slash is a
        // segment of its own to the router, which only a `*rest` pattern takes.
        for path in ["/uploads", "/uploads/*rest"] {
            // Discovery tells nothing of the library.
            router.add(.OPTIONS, path, execution: .inline, access: rules(.open)) { _ in options() }
            router.addStreaming(.POST, path, maxBodyBytes: maxBody, lane: lane, access: manage) { request in
                guard (request.parameters["rest"] ?? "").isEmpty else { throw HTTPError(.notFound, "No resource at \(request.path).") }
                return try tus { try create(request, at: .library) }
            }
        }
        router.get("/uploads/:id", lane: lane, access: manage) { request in try tus { try status(request, at: .library) } }
        router.addStreaming(.PATCH, "/uploads/:id", maxBodyBytes: maxBody, lane: lane, access: manage) { request in
            try tus { try patch(request, at: .library) }
        }
        router.delete("/uploads/:id", lane: lane, access: manage) { request in try tus { try terminate(request, at: .library) } }
        router.addStreaming(.POST, "/uploads/form", maxBodyBytes: Int.max, lane: lane, access: manage) { request in
            try form(request, at: .library)
        }
        if let control { registerLink(on: &router, control: control) }
    }

    /// The same routes under a share link that lets its holder add photos to its folder
    /// (`Rule.ShareNeed.upload`: live, unlocked, `upload` allowed, else 404 or 401): bytes go
    /// into the shared folder whatever the request says, and a link reaches only the uploads
    /// made through it.
    private func registerLink(on router: inout Router, control: AccessControl) {
        let lane = WorkLanes.uploads
        let rule = control.rule(.share(.upload, photo: false))
        let maxBody = service.limits.maxBytes
        for path in ["/s/:token/uploads", "/s/:token/uploads/*rest"] {
            router.add(.OPTIONS, path, execution: .inline, access: control.rule(.open)) { _ in options() }
            router.addStreaming(.POST, path, maxBodyBytes: maxBody, lane: lane, access: rule) { request in
                guard (request.parameters["rest"] ?? "").isEmpty else { throw HTTPError(.notFound, "No resource at \(request.path).") }
                return try tus { try create(request, at: place(request, control)) }
            }
        }
        router.get("/s/:token/uploads/:id", lane: lane, access: rule) { request in try tus { try status(request, at: place(request, control)) } }
        router.addStreaming(.PATCH, "/s/:token/uploads/:id", maxBodyBytes: maxBody, lane: lane, access: rule) { request in
            try tus { try patch(request, at: place(request, control)) }
        }
        router.delete("/s/:token/uploads/:id", lane: lane, access: rule) { request in
            try tus { try terminate(request, at: place(request, control)) }
        }
        router.addStreaming(.POST, "/s/:token/uploads/form", maxBodyBytes: Int.max, lane: lane, access: rule) { request in
            try form(request, at: place(request, control))
        }
    }

    /// The link of the request's `:token` and its folder. The rule let the request in;
    /// this asks again (the link may have gone since) and finds the folder.
    private func place(_ request: HTTPRequest, _ control: AccessControl) throws -> Place {
        guard let key = request.parameters["token"].flatMap(TokenKey.init), let share = try control.share(key),
              share.upload, share.isLive(at: control.wallNow()), case .folder(let shared) = share.target else {
            throw HTTPError(.notFound, "Photos cannot be added through this link.", headers: TusProtocol.commonHeaders)
        }
        guard let folder = service.library.album(shared)?.path else {
            throw HTTPError(.notFound, "The shared folder is gone: photos cannot be added to it.", headers: TusProtocol.commonHeaders)
        }
        return Place(prefix: "/s/" + share.token, link: UploadLink(share: share.id, folder: folder))
    }

    /// Runs a tus handler: the client must speak tus 1.0.0, and every answer says the server does.
    private func tus<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch var error as HTTPError {
            if error.headers["Tus-Resumable"] == nil { error.headers.add("Tus-Resumable", TusProtocol.version) }
            throw error
        }
    }

    /// The library's routes ask who is asking; a link's rule has already let its holder in.
    private func permit(_ request: HTTPRequest, at place: Place) throws {
        if place.link == nil { try service.permission.check(request) }
    }

    private func requireTus(_ request: HTTPRequest, at place: Place) throws {
        try permit(request, at: place)
        guard request.headers["Tus-Resumable"] == TusProtocol.version else {
            throw HTTPError(.preconditionFailed, "This server speaks tus \(TusProtocol.version); send Tus-Resumable: \(TusProtocol.version).",
                            headers: TusProtocol.headers(["Tus-Version": TusProtocol.version]))
        }
    }

    /// What the server offers, for a client's discovery.
    func options() -> HTTPResponse {
        HTTPResponse(status: .noContent, headers: TusProtocol.headers([
            "Tus-Version": TusProtocol.version, "Tus-Extension": TusProtocol.extensions,
            "Tus-Max-Size": String(service.limits.maxBytes), "Tus-Checksum-Algorithm": ChecksumAlgorithm.advertised,
        ]))
    }

    /// Whether the request announces a body.
    private static func hasBody(_ request: HTTPRequest) -> Bool {
        if let length = request.headers["Content-Length"] { return length != "0" }
        return request.headers["Transfer-Encoding"] != nil
    }

    private func create(_ request: HTTPRequest, at place: Place) throws -> BodyStart {
        try requireTus(request, at: place)
        if request.headers["Upload-Defer-Length"] != nil {
            throw HTTPError(.badRequest, "Uploads of a length not known yet are not offered; send Upload-Length.")
        }
        guard let length = TusProtocol.number(request.headers["Upload-Length"]) else {
            throw HTTPError(.badRequest, "Upload-Length must say how many bytes the upload has (a whole number).")
        }
        let withData = Self.hasBody(request)
        if withData && request.headers["Content-Type"]?.lowercased() != TusProtocol.offsetOctetStream {
            throw HTTPError(.unsupportedMediaType, "Data sent with a creation must be \(TusProtocol.offsetOctetStream).")
        }
        let checksum = try Self.checksum(request)
        let record = try service.create(length: length, metadata: request.headers["Upload-Metadata"] ?? "", request: request, link: place.link)
        let location = place.prefix + "/uploads/" + record.id.text
        guard withData || length == 0 else {
            return .response(HTTPResponse(status: .created, headers: TusProtocol.headers([
                "Location": location, "Upload-Offset": "0", "Upload-Expires": service.expiryDate(record),
            ])))
        }
        // Creation with upload: the body is the first piece, at offset 0.
        let claim = try service.claim(record.id)
        let file: FileDescriptor
        do { file = try service.files.openForWriting(record.id) } catch {
            claim.release()
            throw UploadService.storageError(error)
        }
        if let length = request.headers["Content-Length"].flatMap(TusProtocol.number), length > record.length {
            file.close()
            claim.release()
            throw HTTPError(.contentTooLarge, "The body is longer than Upload-Length.")
        }
        return .sink(UploadSink(service: service, record: record, file: file, claim: claim, offset: 0, checksum: checksum, location: location,
                                prefix: place.prefix))
    }

    private func patch(_ request: HTTPRequest, at place: Place) throws -> BodyStart {
        try requireTus(request, at: place)
        guard request.headers["Content-Type"]?.lowercased() == TusProtocol.offsetOctetStream else {
            throw HTTPError(.unsupportedMediaType, "A PATCH body must be \(TusProtocol.offsetOctetStream).")
        }
        guard let offset = TusProtocol.number(request.headers["Upload-Offset"]) else {
            throw HTTPError(.badRequest, "Upload-Offset must say where the bytes go (a whole number).")
        }
        let checksum = try Self.checksum(request)
        let id = try Self.id(request)
        _ = try service.record(id, link: place.link)
        let claim = try service.claim(id)
        do {
            // Read again under the claim: the request that held it may have moved it on.
            let record = try service.record(id, link: place.link)
            let current = try service.offset(record)
            guard offset == current else {
                throw HTTPError(.conflict, "The upload is at offset \(current), not \(offset); continue from there.",
                                headers: TusProtocol.headers(["Upload-Offset": String(current)]))
            }
            if record.state == .complete {
                claim.release()
                var headers = TusProtocol.headers(["Upload-Offset": String(current)])
                if let path = record.photoPath {
                    Self.describe(UploadOutcome(path: path, photoID: service.library.photo(relativePath: path)?.id,
                                                duplicate: record.duplicate), prefix: place.prefix, into: &headers)
                }
                return .response(HTTPResponse(status: .noContent, headers: headers))
            }
            if let length = request.headers["Content-Length"].flatMap(TusProtocol.number), length > record.length - current {
                throw HTTPError(.contentTooLarge, "The body goes past the upload's length of \(record.length) bytes.")
            }
            let file: FileDescriptor
            do { file = try service.files.openForWriting(id) } catch { throw UploadService.storageError(error) }
            return .sink(UploadSink(service: service, record: record, file: file, claim: claim, offset: current, checksum: checksum, location: nil,
                                    prefix: place.prefix))
        } catch {
            claim.release()
            throw error
        }
    }

    /// HEAD and GET: how far the upload is (`Upload-Offset`), and once complete where its photo is.
    private func status(_ request: HTTPRequest, at place: Place) throws -> HTTPResponse {
        if request.method != .HEAD { try permit(request, at: place) } else { try requireTus(request, at: place) }
        let id = try Self.id(request)
        _ = try service.record(id, link: place.link)
        // A PATCH cut a moment ago may still be writing its last piece: its claim says so.
        let claim = try service.claim(id)
        defer { claim.release() }
        let record = try service.record(id, link: place.link)
        let offset = try service.offset(record)
        var headers = TusProtocol.headers(["Upload-Offset": String(offset), "Upload-Length": String(record.length)])
        if !record.metadata.isEmpty { headers.add("Upload-Metadata", record.metadata) }
        if record.state == .receiving { headers.add("Upload-Expires", service.expiryDate(record)) }
        // A link's holder is told the photo, not where the library keeps it.
        let photo = record.photoPath.map { path in
            UploadStatus.PhotoPlace(id: service.library.photo(relativePath: path)?.id, path: place.link == nil ? path : nil)
        }
        if let photo, let path = record.photoPath {
            Self.describe(UploadOutcome(path: path, photoID: photo.id, duplicate: record.duplicate), prefix: place.prefix, into: &headers)
        }
        let status = UploadStatus(id: record.id.text, offset: offset, length: record.length, complete: record.state == .complete,
                                  expires: record.state == .receiving ? service.expiryDate(record) : nil, photo: photo,
                                  duplicate: record.duplicate)
        return try HTTPResponse.json(status, headers: headers)
    }

    private func terminate(_ request: HTTPRequest, at place: Place) throws -> HTTPResponse {
        try requireTus(request, at: place)
        let id = try Self.id(request)
        _ = try service.record(id, link: place.link)
        let claim = try service.claim(id)
        defer { claim.release() }
        try service.terminate(id)
        return HTTPResponse(status: .noContent, headers: TusProtocol.commonHeaders)
    }

    private func form(_ request: HTTPRequest, at place: Place) throws -> BodyStart {
        try permit(request, at: place)
        guard let boundary = MultipartReader.boundary(contentType: request.headers["Content-Type"] ?? "") else {
            throw HTTPError(.unsupportedMediaType, "Send the photos as multipart/form-data (curl -F file=@photo.jpg).")
        }
        return .sink(FormUploadSink(service: service, request: request, reader: MultipartReader(boundary: boundary), place: place))
    }

    // MARK: - Fields

    private static func id(_ request: HTTPRequest) throws -> UploadID {
        guard let text = request.parameters["id"], let id = UploadID(text) else {
            throw HTTPError(.notFound, "There is no upload at \(request.path).")
        }
        return id
    }

    private static func checksum(_ request: HTTPRequest) throws -> UploadChecksumHeader? {
        guard let field = request.headers["Upload-Checksum"] else { return nil }
        do { return try UploadChecksumHeader.parse(field) } catch {
            switch error {
            case .unsupported(let name):
                throw HTTPError(.badRequest, "The checksum algorithm \(name) is not offered; use one of \(ChecksumAlgorithm.advertised).",
                                headers: ["Tus-Checksum-Algorithm": ChecksumAlgorithm.advertised])
            case .malformed:
                throw HTTPError(.badRequest, "Upload-Checksum must be an algorithm and a base64 digest of its length.")
            }
        }
    }

    /// Where a complete upload's photo is, as answer fields: `Photo-ID` once listed, and
    /// `Photo-Duplicate: true` when the bytes were in the library already.
    /// `prefix`: the link's `/s/{token}`, or empty.
    static func describe(_ outcome: UploadOutcome, prefix: String, into headers: inout HTTPHeaders) {
        if let id = outcome.photoID {
            headers.add("Photo-ID", String(id))
            headers.add("Content-Location", "\(prefix)/photos/\(id)")
        }
        headers.add("Photo-Duplicate", outcome.duplicate ? "true" : "false")
    }
}
