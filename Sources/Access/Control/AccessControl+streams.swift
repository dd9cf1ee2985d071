import HTTP

extension AccessControl {
    /// `response` with its event stream bound to the access `request` came with: the stream
    /// closes when that session or link ends, here or on any replica, or expires. A response
    /// that is no stream, or a stream anyone may open (a public library's), is left as it is.
    package func bound(_ response: HTTPResponse, to request: HTTPRequest) throws -> HTTPResponse {
        guard case .stream(let start) = response.body else { return response }
        // Read before the access is, so that an end between the two closes the stream (`add`).
        let epoch = streams.epoch
        guard let access = try streamAccess(of: request) else { return response }
        let streams = self.streams, wallNow = self.wallNow
        var bound = response
        bound.body = .stream { stream in
            streams.add(stream, riding: access, since: epoch)
            guard !stream.isClosed else { return }
            start(access.endsAt.map { ExpiringStream(stream, endsAt: $0, wallNow: wallNow) } ?? stream)
        }
        return bound
    }

    /// What a stream opened by `request` rides on; nil for nothing (anyone sees a public library).
    /// The route's rule let the request in, so each refusal here is an end that came in between.
    func streamAccess(of request: HTTPRequest) throws -> AccessBoundStreams.Access? {
        if request.parameters["token"] != nil { return try linkAccess(of: request) }
        guard mode == .private else { return nil }
        if !trustedAuthHeader.isEmpty, trustedProxies.contains(request.remoteAddress), request.headers[trustedAuthHeader] != nil {
            // A signing-in proxy's request has no session: it rides on the account alone.
            guard let user = try visitor(of: request).user else { throw Self.signedOut }
            return AccessBoundStreams.Access(user: user.id)
        }
        guard let key = CookieJar.token(named: cookies.sessionName, in: request),
              let session = try cache.session(key) ?? lookUpSession(key), let user = session.user else { throw Self.signedOut }
        return AccessBoundStreams.Access(session: session.digest, user: user.id, endsAt: session.endsAt)
    }

    /// A link's stream rides on the link, and on its password session when it has a password.
    private func linkAccess(of request: HTTPRequest) throws -> AccessBoundStreams.Access {
        guard let key = request.parameters["token"].flatMap(TokenKey.init), let share = try share(key), share.isLive(at: wallNow()) else {
            throw HTTPError(.notFound, "This link does not exist: it was revoked, or never made.")
        }
        var access = AccessBoundStreams.Access(share: share.id, endsAt: share.expiresAt)
        guard share.hasPassword else { return access }
        guard let sessionKey = CookieJar.tokens(prefixed: cookies.sharePrefix, id: share.id, in: request),
              let session = try cache.session(sessionKey) ?? lookUpSession(sessionKey), session.shareID == share.id else {
            throw HTTPError(.unauthorized, "This link is protected by a password: give it first.", headers: ["Cache-Control": "no-store"])
        }
        access.session = session.digest
        access.endsAt = min(session.endsAt, share.expiresAt ?? session.endsAt)
        return access
    }

    private static let signedOut = HTTPError(.unauthorized, "Sign in first: this library is private.", headers: ["Cache-Control": "no-store"])
}


extension AccessControl {
    /// Whether what a stream rides on is still in the database: its session, its person, its link.
    static func isStored(in store: AccessStore) -> @Sendable (AccessBoundStreams.Access) throws -> Bool {
        { access in
            try (access.session.map(store.hasSession(digest:)) ?? true) && (access.user.map(store.hasUser(id:)) ?? true)
                && (access.share.map(store.hasShare(id:)) ?? true)
        }
    }
}
