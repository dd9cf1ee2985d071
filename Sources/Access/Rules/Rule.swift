import HTTP

/// The access rule of one of the application's routes. Every route names one when it is
/// registered (the router requires it); `AccessMatrixTests` walks every route with every kind
/// of visitor.
///
/// A change (POST, DELETE …) must come from this server's own pages whatever the rule
/// (`AccessControl.crossSiteRefusal`).
package struct Rule: AccessRule {
    /// What a share link's holder needs for a route under `/s/{token}`.
    package enum ShareNeed: Sendable, Equatable {
        /// The link exists and is live; its password is not asked (its description, the password form).
        case door
        /// The password given, if it has one: the photos.
        case view
        /// …and comments allowed.
        case comments
        /// …and downloads of originals allowed.
        case download
        /// …and adding photos to the shared album allowed.
        case upload
    }

    package enum Kind: Sendable, Equatable {
        /// Anyone: probes, the page's files, signing in.
        case open
        /// Whoever may see the library: anyone on a public server, members and owners on a private one.
        case library
        /// Any signed-in person.
        case signedIn
        /// The owner only: share links, accounts.
        case owner
        /// Whoever may add and change photos: signed-in owners and members; on a public library
        /// also a request from this machine (`ThisMachine`: loopback, no proxy), as before anyone could sign in.
        case manage
        /// `/metrics`: its bearer token, or loopback when it has none.
        case metrics
        /// Deleting a comment: the owner, or a request that brings the admin token (checked by the route).
        case moderation
        /// A route under `/s/{token}`; `photo` when the pattern names a photo (`:id`), which must be in the share.
        case share(ShareNeed, photo: Bool)
    }

    let kind: Kind
    let control: AccessControl

    package init(kind: Kind, control: AccessControl) {
        self.kind = kind
        self.control = control
    }

    @inline(__always)
    package func admit(_ request: HTTPRequest) -> Admission {
        if request.method != .GET && request.method != .HEAD && request.method != .OPTIONS,
           let refusal = control.crossSiteRefusal(request) {
            return .refused(refusal)
        }
        switch kind {
        case .open: return .granted
        case .library:
            if control.mode == .public { return .granted }
            return admitUser(request) { _ in true }
        case .signedIn: return admitUser(request) { _ in true }
        case .owner: return admitUser(request) { $0.role == .owner }
        case .manage:
            if control.mode == .public && control.isThisMachine(request) { return .granted }
            return admitUser(request) { _ in true }
        case .metrics: return admitMetrics(request)
        case .moderation:
            // The admin token is checked (and its guesses throttled) by the route itself.
            if request.headers["Authorization"] != nil { return .granted }
            return admitUser(request) { $0.role == .owner }
        case .share(let need, let photo): return admitShare(request, need: need, photo: photo)
        }
    }

    /// Granted to a signed-in person `allowed` lets in; 401 to anyone else, 403 to a person it does not.
    @inline(__always)
    private func admitUser(_ request: HTTPRequest, _ allowed: @escaping @Sendable (SignedIn) -> Bool) -> Admission {
        if let visitor = control.quickVisitor(request) { return decide(visitor, request, allowed) }
        let control = self.control
        return .deferred {
            do {
                return Self.refusal(try control.visitor(of: request), request, control, allowed)
            } catch {
                return AccessControl.unavailable(error)
            }
        }
    }

    @inline(__always)
    private func decide(_ visitor: Visitor, _ request: HTTPRequest, _ allowed: (SignedIn) -> Bool) -> Admission {
        if case .user(let user) = visitor, allowed(user) { return .granted }
        return .refused(Self.refusal(visitor, request, control, allowed)!)
    }

    private static func refusal(_ visitor: Visitor, _ request: HTTPRequest, _ control: AccessControl,
                                _ allowed: (SignedIn) -> Bool) -> HTTPResponse? {
        switch visitor {
        case .user(let user): allowed(user) ? nil : AccessControl.forbidden("Only the owner may do this.")
        case .anonymous: control.unauthorized(request)
        }
    }

    private func admitMetrics(_ request: HTTPRequest) -> Admission {
        if let token = control.metricsToken {
            let keys = control.throttleKeys(request)
            if let refusal = control.throttled(keys, what: "metrics tokens") { return .refused(refusal.response) }
            if let header = request.headers["Authorization"], let presented = AdminToken.bearerToken(header),
               SecretComparison.equals(Array(presented.utf8), token) {
                return .granted
            }
            control.throttle.fail(keys)
            return .refused(.problem(.unauthorized, detail: "/metrics needs Authorization: Bearer <metricsToken>.",
                                     headers: ["WWW-Authenticate": "Bearer realm=\"metrics\"", "Cache-Control": "no-store"]))
        }
        // Without a token, only this machine may scrape, and not through a proxy on it.
        if control.isThisMachine(request) { return .granted }
        return .refused(AccessControl.forbidden("/metrics is served to this machine only; set metricsToken to scrape it from elsewhere."))
    }

    @inline(__always)
    private func admitShare(_ request: HTTPRequest, need: ShareNeed, photo: Bool) -> Admission {
        switch control.quickShare(request) {
        case .malformed: return .refused(Self.noSuchLink)
        case .found(let share, _):
            if photo, case .album = share.target {
                // An album's photos are read from the database (kept a moment): off the event loop.
                let control = self.control
                return .deferred {
                    do { return try Self.decide(share, need: need, photo: photo, request, control) } catch { return AccessControl.unavailable(error) }
                }
            }
            if let refusal = Self.refusal(share, need: need, photo: photo, request, control) { return .refused(refusal) }
            guard need != .door, share.hasPassword else { return .granted }
            switch control.quickUnlocked(share, request) {
            case true?: return .granted
            case false?: return .refused(Self.locked(share))
            case nil: break
            }
            let control = self.control
            return .deferred {
                do { return try control.unlocked(share, request) ? nil : Self.locked(share) } catch { return AccessControl.unavailable(error) }
            }
        case .unknown(let key):
            let control = self.control
            return .deferred {
                do {
                    guard let share = try control.share(key) else { return Self.noSuchLink }
                    return try Self.decide(share, need: need, photo: photo, request, control)
                } catch {
                    return AccessControl.unavailable(error)
                }
            }
        }
    }

    /// The whole decision for a found link, where waiting on the database is fine.
    private static func decide(_ share: Share, need: ShareNeed, photo: Bool, _ request: HTTPRequest,
                               _ control: AccessControl) throws -> HTTPResponse? {
        if let refusal = refusal(share, need: need, photo: photo, request, control) { return refusal }
        guard need != .door, share.hasPassword else { return nil }
        return try control.unlocked(share, request) ? nil : locked(share)
    }

    /// Why a live request under a link is refused, before its password: expired, a part the
    /// link does not allow, a photo it does not hold. Each is a 404: what is not shared is not
    /// there, as far as the link's holder can tell.
    private static func refusal(_ share: Share, need: ShareNeed, photo: Bool, _ request: HTTPRequest,
                                _ control: AccessControl) -> HTTPResponse? {
        guard share.isLive(at: control.wallNow()) else { return expired }
        switch need {
        case .comments where !share.comments: return AccessControl.notFound("Comments are not shared through this link.")
        case .download where !share.download: return AccessControl.notFound("Originals cannot be downloaded through this link.")
        case .upload where !share.upload: return AccessControl.notFound("Photos cannot be added through this link.")
        default: break
        }
        if photo {
            guard let id = request.parameters.decimal("id", at: 1), control.isShared(id, share.target) else {
                return AccessControl.notFound("There is no photo at \(request.path).")
            }
        }
        return nil
    }

    static let noSuchLink = AccessControl.notFound("This link does not exist: it was revoked, or never made.")
    static let expired = AccessControl.notFound("This link has expired.")

    static func locked(_ share: Share) -> HTTPResponse {
        .problem(.unauthorized, detail: "This link is protected by a password: give it first.",
                 headers: ["WWW-Authenticate": "Cookie realm=\"photoscroll-share\", form-action=\"unlock\"", "Cache-Control": "no-store"])
    }
}

extension AccessControl {
    /// The rule of a route, for its registration.
    package func rule(_ kind: Rule.Kind) -> Rule { Rule(kind: kind, control: self) }
}
