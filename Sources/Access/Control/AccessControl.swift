import Foundation
import HTTP
import Observability
import SQL
import Synchronization

/// The server's side of who may do what: its mode, the accounts and links in the database,
/// what it keeps of them in memory, and the checks the routes' rules make.
///
/// The checks that run for every request (`quickVisitor`, `quickShare`) look only in memory and
/// allocate nothing; what memory does not settle is looked up in the database on a worker
/// (`visitor(of:)`, `share(_:)`), and kept.
package final class AccessControl: Sendable {
    package let mode: AccessMode
    package let store: AccessStore
    let cache: AccessCache
    /// The open event streams, each closed when the access it rides on ends.
    let streams: AccessBoundStreams
    package let cookies: AccessCookies
    /// Failed sign-ins, setup attempts, share passwords and metrics tokens, per account and per client.
    package let throttle: FailureThrottle
    package let clients: ClientAddress
    /// The field a signing-in proxy names the user in (`Remote-User`); empty for none.
    let trustedAuthHeader: String
    let trustedProxies: Set<String>
    /// `/metrics` asks for this bearer token; nil: it answers on loopback only.
    let metricsToken: [UInt8]?
    /// `https://photos.example.org`, or empty.
    package let publicURL: String
    /// How long a new share link lasts when its maker does not say; nil: until revoked.
    package let defaultShareSeconds: Int?
    package let logger: Logger
    /// Wall-clock unix seconds, the clock share links and sessions expire by.
    package let wallNow: @Sendable () -> Int
    /// Whether a photo is among what a link shares (the catalog's answer).
    package let isShared: @Sendable (_ photoID: Int, _ target: Share.Target) -> Bool
    private let listener = Mutex<SQLListener?>(nil)
    private let untrustedProxyLogged = Atomic(false)

    package struct Settings: Sendable {
        package var mode: AccessMode
        package var publicURL: String
        package var cacheSeconds: Double
        package var shareDays: Int
        package var trustedProxies: String
        package var trustedAuthHeader: String
        package var metricsToken: String

        package init(mode: AccessMode, publicURL: String = "", cacheSeconds: Double = 5.0, shareDays: Int = 30,
                     trustedProxies: String = "", trustedAuthHeader: String = "", metricsToken: String = "") {
            self.mode = mode
            self.publicURL = publicURL
            self.cacheSeconds = cacheSeconds
            self.shareDays = shareDays
            self.trustedProxies = trustedProxies
            self.trustedAuthHeader = trustedAuthHeader
            self.metricsToken = metricsToken
        }
    }

    package init(settings: Settings, store: AccessStore, logger: Logger,
         isShared: @escaping @Sendable (Int, Share.Target) -> Bool,
         throttle: FailureThrottle = FailureThrottle(),
         now: @escaping @Sendable () -> Double = ClockSeconds.now,
         wallNow: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }) throws {
        mode = settings.mode
        self.store = store
        cache = AccessCache(seconds: settings.cacheSeconds, now: now)
        // SQLite hears only this process's changes: `photoscroll users` in another is found
        // by asking, as often as the cache asks.
        streams = AccessBoundStreams(wallNow: wallNow, recheck: store.database.engine == .sqlite
            ? AccessBoundStreams.Recheck(seconds: Int(settings.cacheSeconds.rounded(.up)), isStored: Self.isStored(in: store)) : nil)
        cookies = AccessCookies(secure: settings.publicURL.hasPrefix("https://"))
        self.throttle = throttle
        clients = ClientAddress(trustedProxies: settings.trustedProxies)
        trustedProxies = clients.trustedProxies
        trustedAuthHeader = settings.trustedAuthHeader
        metricsToken = settings.metricsToken.isEmpty ? nil : Array(settings.metricsToken.utf8)
        publicURL = settings.publicURL
        defaultShareSeconds = settings.shareDays > 0 ? settings.shareDays * 86_400 : nil
        self.logger = logger
        self.isShared = isShared
        self.wallNow = wallNow
    }

    // MARK: notifications

    /// Starts hearing what ends sessions and links, from this process and every other on the
    /// database; until the listener is connected nothing is kept in memory. Open streams end
    /// with what they ride on, and all of them when the listener (re)connects, since what ended
    /// while it could not hear is not known.
    package func start() throws {
        let cache = self.cache, streams = self.streams
        let logger = self.logger
        streams.start()
        let made = try store.database.listen([AccessChange.channel]) { event in
            switch event {
            case .connected:
                cache.startHearing()
                streams.endAll()
            case .disconnected(let error):
                cache.stopHearing()
                logger.warning("access changes cannot be heard; every request is checked against the database meanwhile",
                               [("error", error.message)])
            case .notification(let note):
                if let change = AccessChange(payload: note.payload) {
                    cache.drop(change)
                    streams.end(change)
                } else {
                    cache.startHearing()
                    streams.endAll()
                }
            }
        }
        listener.withLock { $0 = made }
    }

    package func stop() {
        let made = listener.withLock { listener -> SQLListener? in
            defer { listener = nil }
            return listener
        }
        made?.stop()
        cache.stopHearing()
        streams.stop()
    }

    // MARK: who is asking

    /// Who is asking, when memory alone can tell; nil when the database must be asked.
    @inline(__always)
    func quickVisitor(_ request: HTTPRequest) -> Visitor? {
        if !trustedAuthHeader.isEmpty, trustedProxies.contains(request.remoteAddress) {
            guard let name = request.headers[trustedAuthHeader] else { return sessionVisitor(request) }
            return cache.user(named: name).map { $0.map(Visitor.user) ?? .anonymous }
        }
        return sessionVisitor(request)
    }

    @inline(__always)
    private func sessionVisitor(_ request: HTTPRequest) -> Visitor? {
        guard let key = CookieJar.token(named: cookies.sessionName, in: request) else { return .anonymous }
        guard let entry = cache.session(key) else { return nil }
        return entry.user.map(Visitor.user) ?? .anonymous
    }

    /// Who is asking, from memory or the database (on a worker thread).
    package func visitor(of request: HTTPRequest) throws -> Visitor {
        if let known = quickVisitor(request) { return known }
        if !trustedAuthHeader.isEmpty, trustedProxies.contains(request.remoteAddress), let name = request.headers[trustedAuthHeader] {
            let epoch = cache.epoch
            let found = try store.user(named: name).map { SignedIn(id: $0.id, name: $0.name, role: $0.role) }
            cache.keep(name: name, user: found, since: epoch)
            if found == nil {
                logger.warning("the signing-in proxy names a user who has no account here", [("user", name)])
            }
            return found.map(Visitor.user) ?? .anonymous
        }
        guard let key = CookieJar.token(named: cookies.sessionName, in: request) else { return .anonymous }
        return try lookUpSession(key)?.user.map(Visitor.user) ?? .anonymous
    }

    /// The session behind a token, from the database, kept in memory for a while.
    func lookUpSession(_ key: TokenKey) throws -> AccessCache.SessionEntry? {
        let epoch = cache.epoch
        guard let session = try store.session(token: key.text) else { return nil }
        let endsAt = min(session.expiresAt, session.lastSeen + store.limits.idleSeconds)
        let remaining = Double(endsAt - wallNow())
        let user = session.user.map { SignedIn(id: $0.id, name: $0.name, role: $0.role) }
        let shareID: Int? = if case .share(let id) = session.holder { id } else { nil }
        cache.keep(key, digest: session.digest, user: user, shareID: shareID, endsAt: endsAt, remaining: remaining, since: epoch)
        return AccessCache.SessionEntry(digest: session.digest, user: user, shareID: shareID, endsAt: endsAt, validUntil: 0)
    }

    /// Whether the request may add and change photos (`Rule.Kind.manage`): a signed-in owner or
    /// member, or on a public library a request from this machine.
    package func mayManage(_ request: HTTPRequest) throws -> Bool {
        if mode == .public && isThisMachine(request) { return true }
        return try visitor(of: request).user != nil
    }

    /// Whether the request comes from this machine (`ThisMachine`). The first forwarded request
    /// from a proxy not in `trustedProxies` is logged, with the setting that would trust it: until
    /// then everyone behind it is a stranger.
    package func isThisMachine(_ request: HTTPRequest) -> Bool {
        if ThisMachine.asks(request) { return true }
        if !trustedProxies.contains(request.remoteAddress), ThisMachine.isForwarded(request),
           untrustedProxyLogged.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            logger.warning("a request forwarded by a proxy that is not trusted is treated as a stranger's; if the proxy is yours, "
                + "add its address to trustedProxies (PHOTOSCROLL_TRUSTED_PROXIES)", [("proxy", request.remoteAddress)])
        }
        return false
    }

    // MARK: share links

    /// The link named by the route's `:token`, when memory holds it; `.unknown` when the
    /// database must be asked, `.malformed` for a value that is no token.
    enum QuickShare {
        case found(Share, TokenKey)
        case unknown(TokenKey)
        case malformed
    }

    @inline(__always)
    func quickShare(_ request: HTTPRequest) -> QuickShare {
        guard let found = request.parameters.withUTF8("token", at: 0, { TokenKey($0) }), let key = found else { return .malformed }
        if let share = cache.share(key) { return .found(share, key) }
        return .unknown(key)
    }

    /// The link behind a token, from memory or the database (kept in memory for a while); nil
    /// for a token no link has.
    package func share(_ key: TokenKey) throws -> Share? {
        if let share = cache.share(key) { return share }
        let epoch = cache.epoch
        guard let share = try store.share(token: key.text) else { return nil }
        let remaining = share.expiresAt.map { Double($0 - wallNow()) } ?? .infinity
        cache.keep(key, share: share, remaining: remaining, since: epoch)
        return share
    }

    // MARK: changes

    /// Ends a session: in the database (heard by every replica), and in this process's memory
    /// before the answer goes out.
    package func endSession(token: String) throws {
        try store.endSession(token: token)
        if AccessToken.isWellFormed(token) { ended(.session(store.digest(of: token))) }
    }

    /// Revokes a link, here at once and everywhere as the change is heard.
    package func revokeShare(id: Int) throws -> Bool {
        let revoked = try store.revokeShare(id: id)
        ended(.share(id))
        return revoked
    }

    /// Sets a password and ends every session of the account, here at once.
    package func setPassword(of user: User, to password: String) throws {
        try store.setPassword(name: user.name, password: password)
        ended(.user(user.id))
    }

    /// Drops what a change here ended before the answer goes out; other processes hear it.
    private func ended(_ change: AccessChange) {
        cache.drop(change)
        streams.end(change)
    }

    /// Whether the request carries the password session of `share` (its password was given):
    /// true or false from memory, nil when the database must be asked.
    func quickUnlocked(_ share: Share, _ request: HTTPRequest) -> Bool? {
        guard let key = CookieJar.tokens(prefixed: cookies.sharePrefix, id: share.id, in: request) else { return false }
        guard let entry = cache.session(key) else { return nil }
        return entry.shareID == share.id
    }

    /// `quickUnlocked`, asking the database when memory cannot tell.
    package func unlocked(_ share: Share, _ request: HTTPRequest) throws -> Bool {
        if let known = quickUnlocked(share, request) { return known }
        guard let key = CookieJar.tokens(prefixed: cookies.sharePrefix, id: share.id, in: request) else { return false }
        return try lookUpSession(key)?.shareID == share.id
    }

    // MARK: answers

    /// 401 for a request that needs a session: problem+json with `WWW-Authenticate` for the
    /// API, the sign-in page (by a redirect that comes back) for a browser loading a page.
    package func unauthorized(_ request: HTTPRequest, _ detail: String = "Sign in first: this library is private.") -> HTTPResponse {
        if Self.isPageLoad(request) {
            let back = request.path + (request.queryString.isEmpty ? "" : "?" + request.queryString)
            return HTTPResponse(status: .seeOther, headers: [
                "Location": "/?next=" + (back.addingPercentEncoding(withAllowedCharacters: Self.nextAllowed) ?? "/"),
                "Cache-Control": "no-store",
            ])
        }
        return .problem(.unauthorized, detail: detail, headers: [
            "WWW-Authenticate": "Cookie realm=\"photoscroll\", form-action=\"/session\", cookie-name=\"\(cookies.session)\"",
            "Cache-Control": "no-store",
        ])
    }

    static let nextAllowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/-._~"))

    /// Whether a browser is loading a page (rather than fetching data for one).
    static func isPageLoad(_ request: HTTPRequest) -> Bool {
        guard request.method == .GET || request.method == .HEAD else { return false }
        if let mode = request.headers["Sec-Fetch-Mode"] { return mode == "navigate" }
        return request.headers["Accept"].map { $0.hasPrefix("text/html") } ?? false
    }

    static func forbidden(_ detail: String) -> HTTPResponse {
        .problem(.forbidden, detail: detail, headers: ["Cache-Control": "no-store"])
    }

    static func notFound(_ detail: String) -> HTTPResponse {
        .problem(.notFound, detail: detail, headers: ["Cache-Control": "no-store"])
    }

    /// 503 while the database cannot be asked who someone is.
    static func unavailable(_ error: Error) -> HTTPResponse {
        .problem(.serviceUnavailable, detail: "Who is signed in cannot be checked now: the database does not answer. Try again shortly.",
                 headers: ["Cache-Control": "no-store", "Retry-After": "5"])
    }

    /// 403 for a change (POST, DELETE …) sent from another site's page: its `Origin` is not this
    /// server's, or the browser says `Sec-Fetch-Site: cross-site`. Requests from programs, which
    /// send neither, go on: a cross-site request needs a browser.
    func crossSiteRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        if let origin = request.headers["Origin"] {
            if !publicURL.isEmpty && origin == publicURL { return nil }
            if let host = request.headers["Host"], !host.isEmpty, origin == "http://" + host || origin == "https://" + host { return nil }
            return Self.forbidden("Changes are accepted only from this server's own pages, not from \(origin.prefix(100)).")
        }
        if let site = request.headers["Sec-Fetch-Site"], site != "same-origin", site != "none" {
            return Self.forbidden("Changes are accepted only from this server's own pages (Sec-Fetch-Site: \(site.prefix(20))).")
        }
        return nil
    }

    /// The keys a failed attempt counts under: the client's (its /64 for IPv6), and `extra`.
    package func throttleKeys(_ request: HTTPRequest, _ extra: String...) -> [String] {
        FailureThrottle.keys(forClient: clients.of(request)) + extra
    }

    /// 429 with `Retry-After` while `keys` have failed too often; nil to go on.
    package func throttled(_ keys: [String], what: String) -> HTTPError? {
        guard case .limited(let seconds) = throttle.check(keys) else { return nil }
        return HTTPError(.tooManyRequests, "Too many wrong \(what). Try again in \(seconds) s.",
                         headers: ["Retry-After": String(seconds), "Cache-Control": "no-store"])
    }
}
