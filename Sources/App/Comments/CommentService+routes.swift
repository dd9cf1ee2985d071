import Comments
import HTTP

extension CommentService {
    /// The largest comment post accepted. 2000 characters of ordinary text take at most 8 KiB of
    /// UTF-8, and escaping grows that; 16 KiB leaves room and no more. Characters built from many
    /// scalars (flags, family emoji) can need more, and then this cap is the limit that applies.
    static let maxPostBytes = 16 * 1024
    /// Comments per page when `?limit=` is not given, and the most one page may hold.
    static let defaultPageSize = 50
    static let maxPageSize = 200

    /// Registers the comment routes under /photos/:id/comments.
    public func register(on router: inout Router) { register(on: &router, rules: .none) }

    /// The comment routes under `rules`.
    func register(on router: inout Router, rules: RouteRules) {
        // Comments have worker threads of their own (see `WorkLanes`): a tile flood never delays a post.
        let lane = WorkLanes.comments
        let library = rules(.library)
        router.get("/photos/:id/comments", lane: lane, access: library) { [self] request in try listComments(request) }
        router.post("/photos/:id/comments", maxBodyBytes: Self.maxPostBytes, lane: lane, access: library) { [self] request in
            // A signed-in person's comments carry their name, whatever the form says; nobody else takes an account's.
            try postComment(request, poster: try rules.control?.commentPoster(of: request) ?? .anyone)
        }
        router.get("/photos/:id/comments/events", lane: lane, access: library) { [self] request in
            try rules.bound(openEvents(request), to: request)
        }
        router.get("/photos/:id/comments/:cid", lane: lane, access: library) { [self] request in try showComment(request) }
        router.delete("/photos/:id/comments/:cid", lane: lane, access: rules(.moderation)) { [self] request in
            // The owner deletes with their session; anyone else needs the admin token.
            try deleteComment(request, byOwner: try rules.control?.visitor(of: request).user?.role == .owner)
        }
        if let control = rules.control { registerShared(on: &router, control: control) }
    }

    /// A page of a photo's comments; `prefix` is a share link's `/s/{token}` for the `Link` it names.
    func listComments(_ request: HTTPRequest, prefix: String = "") throws -> HTTPResponse {
        let photoID = try existingPhoto(request)
        let limit = try Self.queryNumber(request, "limit", range: 1...Self.maxPageSize,
                                         message: "limit must be a whole number from 1 to \(Self.maxPageSize).") ?? Self.defaultPageSize
        let after = try Self.queryNumber(request, "after", range: 0...Int.max,
                                         message: "after must be a comment id (a whole number, 0 or more).")
        let comments = try storeCall { try store.list(photoID: photoID, after: after, limit: limit) }
        var headers: HTTPHeaders = ["Cache-Control": caching.revalidate]
        if comments.count == limit, let last = comments.last {
            // A full page may have more behind it; say where it continues (RFC 8288).
            headers.set("Link", "<\(prefix)/photos/\(photoID)/comments?after=\(last.id)&limit=\(limit)>; rel=\"next\"")
        }
        return try .json(CommentList(comments), headers: headers)
    }

    /// Posts a comment: under a signed-in `poster`'s account name, verified, else under the name
    /// the poster typed (422 when it is an account's); `prefix` is a share link's `/s/{token}`
    /// for the paths the answer names.
    func postComment(_ request: HTTPRequest, poster: CommentPoster = .anyone, prefix: String = "") throws -> HTTPResponse {
        do {
            let response = try acceptComment(request, poster: poster, prefix: prefix)
            posts.increment(by: 1, [("status", String(response.status.rawValue))])
            return response
        } catch let error as HTTPResponseError {
            posts.increment(by: 1, [("status", String(error.status.rawValue))])
            throw error
        } catch {
            posts.increment(by: 1, [("status", "500")])
            throw error
        }
    }

    private func acceptComment(_ request: HTTPRequest, poster: CommentPoster, prefix: String) throws -> HTTPResponse {
        let photoID = try existingPhoto(request)
        var (submission, format) = try CommentSubmission.decode(body: request.body, contentType: request.headers["Content-Type"])
        let client = clients.of(request)
        if case .limited(let seconds) = try storeCall({ try limiter.take(for: client) }) {
            throw HTTPError(.tooManyRequests,
                            "Too many comments from your address: at most \(limiter.perMinute) a minute. Try again in \(seconds) s.",
                            headers: ["Retry-After": String(seconds)])
        }
        // After the rate limit: a 422 tells an account's name, so names are tried no faster than comments are sent.
        switch poster {
        case .account(let name):
            submission.author = name
            submission.verified = true
        case .guest(let isAccountName):
            // "Anonymous" is what an empty name becomes, not a name chosen.
            if submission.author != CommentSubmission.anonymous, try storeCall({ try isAccountName(submission.author) }) {
                throw CommentPoster.accountNameTaken(submission.author)
            }
        }
        let comment = try add(submission, photoID: photoID, client: client)
        if format == .form && !AcceptPreference.prefersJSON(request.headers["Accept"]) {
            // A browser submitting the form itself goes back to the photo, where the comment now shows.
            return HTTPResponse(status: .seeOther, headers: ["Location": "\(prefix.isEmpty ? "/" : prefix)#/photos/\(photoID)"])
        }
        return try .json(CommentRecord(comment), status: .created, headers: ["Location": "\(prefix)/photos/\(photoID)/comments/\(comment.id)"])
    }

    func showComment(_ request: HTTPRequest) throws -> HTTPResponse {
        let photoID = try existingPhoto(request)
        let commentID = try Self.commentID(request)
        guard let comment = try storeCall({ try store.comment(photoID: photoID, id: commentID) }) else {
            throw HTTPError(.notFound, "Photo \(photoID) has no comment \(commentID).")
        }
        return try .json(CommentRecord(comment), headers: ["Cache-Control": caching.revalidate])
    }

    func deleteComment(_ request: HTTPRequest, byOwner: Bool = false) throws -> HTTPResponse {
        let photoID = try Self.pathID(request, "id", what: "photo")
        let commentID = try Self.commentID(request)
        // Authorization first: without the token (or the owner's session), nobody learns which comments exist.
        let client = clients.of(request)
        if !byOwner { try adminToken.authorize(request.headers["Authorization"], client: client) }
        guard try delete(photoID: photoID, commentID: commentID, client: client) else {
            throw HTTPError(.notFound, "Photo \(photoID) has no comment \(commentID).")
        }
        logger.info("comment deleted", [("photo", String(photoID)), ("comment", String(commentID)), ("client", client)])
        return HTTPResponse(status: .noContent)
    }

    func openEvents(_ request: HTTPRequest) throws -> HTTPResponse {
        let photoID = try existingPhoto(request)
        // The browser resends the header on its own with the last id it saw; if that is somehow
        // not an id, replaying nothing beats failing, which would stop the browser reconnecting.
        let fromHeader = request.headers["Last-Event-ID"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
        let lastEventID = try fromHeader ?? Self.queryNumber(request, "lastEventId", range: 0...Int.max,
                                                               message: "lastEventId must be a comment id (a whole number, 0 or more).")
        let events = self.events
        let store = self.store
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/event-stream")
        headers.set("Cache-Control", caching.revalidate)
        headers.set("X-Accel-Buffering", "no") // nginx in front would otherwise hold events back
        return HTTPResponse(status: .ok, headers: headers, body: .stream { stream in
            let source = CommentReplaySource(deletedIDs: { try store.deletedIDs(photoID: photoID, through: $0) },
                                             page: { try store.list(photoID: photoID, after: $0, limit: $1) })
            events.open(photoID: photoID, stream: stream, lastEventID: lastEventID, replay: source)
        })
    }

    /// The photo id from the path, 404 unless it is well-formed and the photo exists.
    private func existingPhoto(_ request: HTTPRequest) throws -> Int {
        let photoID = try Self.pathID(request, "id", what: "photo")
        guard photoExists(photoID) else { throw HTTPError(.notFound, "There is no photo \(photoID).") }
        return photoID
    }

    private static func commentID(_ request: HTTPRequest) throws -> Int {
        try pathID(request, "cid", what: "comment")
    }

    /// A path id: a positive decimal integer without sign or leading zeros; anything else is 404,
    /// because no resource lives at such a path.
    static func pathID(_ request: HTTPRequest, _ name: String, what: String) throws -> Int {
        let text = request.parameters[name] ?? ""
        guard let id = parseID(text) else {
            throw HTTPError(.notFound, "\"\(text)\" is not a \(what) id; ids are positive whole numbers.")
        }
        return id
    }

    /// `"17"` → 17; nil for `"0"`, `"017"`, `"+17"`, `"1e3"`, and numbers too large for an id.
    static func parseID(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard (1...18).contains(utf8.count), utf8.first != UInt8(ascii: "0"),
              utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }

    /// A whole-number query item within `range`; nil when absent, 400 with `message` when malformed.
    static func queryNumber(_ request: HTTPRequest, _ name: String, range: ClosedRange<Int>, message: String) throws -> Int? {
        guard let text = request.query(name) else { return nil }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), text.utf8.count <= 18,
              let value = Int(text), range.contains(value) else {
            throw HTTPError(.badRequest, message)
        }
        return value
    }
}
