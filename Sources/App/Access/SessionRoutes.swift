import Access
import Foundation
import HTTP

/// Signing in and out, changing one's password, and making the first owner:
///
/// - `POST /session` `{"username","password"}` → 204 with the session cookie
/// - `GET /session` → 200 `{"username","role"}` for a signed-in person; on a public library 200
///   `{"access":"public","role":"visitor","setup","manage"}` for anyone else; on a private one 401
/// - `DELETE /session` → 204: the session ends on every replica, and the browser is told to
///   forget what it kept (`Clear-Site-Data`)
/// - `POST /session/password` `{"current","new"}` → 204: every session of the account ends,
///   and this browser gets a new one
/// - `GET /setup?token=…` the page's owner setup; `POST /setup` `{"token","username","password"}`
///   → 204, signed in as the new owner; `POST /setup/check` `{"token"}` → 204 while the token
///   can still make the owner, without using it up (`SetupCheck`)
///
/// Wrong passwords and setup tokens are throttled per client and per account (429 with
/// `Retry-After`); a name nobody has takes as long to refuse as a wrong password.
struct SessionRoutes: Sendable {
    let control: AccessControl

    /// The largest body accepted: a name and two passwords.
    static let maxBodyBytes = 8 * 1024

    func register(on router: inout Router) {
        let lane = WorkLanes.access
        router.post("/session", maxBodyBytes: Self.maxBodyBytes, lane: lane, access: control.rule(.open)) { request in try signIn(request) }
        router.get("/session", lane: lane, access: control.rule(.open)) { request in try current(request) }
        router.delete("/session", lane: lane, access: control.rule(.open)) { request in try signOut(request) }
        router.post("/session/password", maxBodyBytes: Self.maxBodyBytes, lane: lane, access: control.rule(.signedIn)) { request in
            try changePassword(request)
        }
        router.post("/setup", maxBodyBytes: Self.maxBodyBytes, lane: lane, access: control.rule(.open)) { request in try setUp(request) }
        router.post("/setup/check", maxBodyBytes: Self.maxBodyBytes, lane: lane, access: control.rule(.open)) { request in
            try checkSetup(request)
        }
    }

    struct SignIn: Decodable {
        let username: String
        let password: String
    }

    struct Who: Encodable {
        let username: String
        let role: String
    }

    /// Someone not signed in on a public library: they may look, so this is no error. Says
    /// whether the library waits for its owner and whether this visitor may change photos.
    struct Visiting: Encodable {
        let access = "public"
        let role = "visitor"
        let setup: Bool
        /// Whether this visitor may add and change photos all the same (a request from this machine).
        let manage: Bool
    }

    /// 401 `problem+json` for nobody signed in on a private library, saying whether it still
    /// waits for its owner, so the page knows what to show.
    struct Nobody: Encodable {
        let type = "about:blank"
        let title = "Unauthorized"
        let status = 401
        let detail: String
        let access: String
        let setup: Bool
        /// Whether this visitor may add and change photos all the same (a public library, from this machine).
        let manage: Bool
    }

    func signIn(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.decode(SignIn.self, request)
        let keys = control.throttleKeys(request, "user:" + body.username)
        if let refusal = control.throttled(keys, what: "passwords") { throw refusal }
        guard let user = try control.store.authenticate(name: body.username, password: body.password) else {
            control.throttle.fail(keys)
            control.logger.info("sign-in refused", [("user", body.username), ("client", control.clients.of(request))])
            throw HTTPError(.unauthorized, "The user name or the password is not right.",
                            headers: ["WWW-Authenticate": challenge, "Cache-Control": "no-store"])
        }
        control.throttle.succeed(["user:" + body.username])
        control.logger.info("signed in", [("user", user.name), ("client", control.clients.of(request))])
        return try startSession(for: user, replacing: request)
    }

    /// A new session for `user`, and the one the request came with (if any) ended: a session id
    /// planted in the browser before signing in is never the one signed in with.
    func startSession(for user: User, replacing request: HTTPRequest) throws -> HTTPResponse {
        if let old = CookieJar.value(named: control.cookies.session, in: request) { try? control.endSession(token: old) }
        let token = try control.store.startSession(for: user)
        return HTTPResponse(status: .noContent, headers: HTTPHeaders([
            ("Set-Cookie", control.cookies.set(control.cookies.session, token, seconds: control.store.limits.lifetimeSeconds)),
            ("Cache-Control", "no-store"),
        ]))
    }

    func current(_ request: HTTPRequest) throws -> HTTPResponse {
        guard case .user(let user) = try control.visitor(of: request) else {
            if control.mode == .public {
                let visiting = Visiting(setup: !(try control.store.hasOwner()), manage: try control.mayManage(request))
                return try HTTPResponse.json(visiting, headers: ["Cache-Control": "no-store"])
            }
            let nobody = Nobody(detail: "Nobody is signed in.", access: control.mode.rawValue, setup: !(try control.store.hasOwner()),
                                manage: try control.mayManage(request))
            var response = try HTTPResponse.json(nobody, status: .unauthorized,
                                                 headers: ["WWW-Authenticate": challenge, "Cache-Control": "no-store"])
            response.headers.set("Content-Type", "application/problem+json")
            return response
        }
        return try HTTPResponse.json(Who(username: user.name, role: user.role.rawValue), headers: ["Cache-Control": "no-store"])
    }

    /// Ends the session (on every replica), and tells the browser to forget it with whatever
    /// it cached of the library. 204 whether or not there was a session.
    func signOut(_ request: HTTPRequest) throws -> HTTPResponse {
        if let token = CookieJar.value(named: control.cookies.session, in: request) {
            try control.endSession(token: token)
        }
        return HTTPResponse(status: .noContent, headers: HTTPHeaders([
            ("Set-Cookie", control.cookies.clear(control.cookies.session)),
            ("Clear-Site-Data", "\"cache\", \"cookies\", \"storage\""),
            ("Cache-Control", "no-store"),
        ]))
    }

    struct PasswordChange: Decodable {
        let current: String
        let new: String
    }

    func changePassword(_ request: HTTPRequest) throws -> HTTPResponse {
        guard case .user(let signedIn) = try control.visitor(of: request), let user = try control.store.user(named: signedIn.name) else {
            return control.unauthorized(request)
        }
        let body = try Self.decode(PasswordChange.self, request)
        let keys = control.throttleKeys(request, "user:" + user.name)
        if let refusal = control.throttled(keys, what: "passwords") { throw refusal }
        guard control.store.verify(body.current, of: user) else {
            control.throttle.fail(keys)
            throw HTTPError(.forbidden, "The current password is not right.", headers: ["Cache-Control": "no-store"])
        }
        do {
            try control.setPassword(of: user, to: body.new)
        } catch let error as AccessError {
            throw HTTPError(.badRequest, error.description)
        }
        control.logger.info("password changed; every session of the user ended", [("user", user.name)])
        return try startSession(for: user, replacing: request)
    }

    var challenge: String {
        "Cookie realm=\"photoscroll\", form-action=\"/session\", cookie-name=\"\(control.cookies.session)\""
    }

    /// A JSON body as `T`: 415 for another media type, 400 saying what is missing or wrong.
    static func decode<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) throws -> T {
        let mediaType = request.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard mediaType == "application/json" else {
            throw HTTPError(.unsupportedMediaType, "Send the body as JSON, with Content-Type: application/json.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(request.body))
        } catch DecodingError.keyNotFound(let key, _) {
            throw HTTPError(.badRequest, "The body has no \"\(key.stringValue)\".")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw HTTPError(.badRequest, "\"\(path)\" in the body has the wrong type.")
        } catch {
            throw HTTPError(.badRequest, "The body is not a JSON object.")
        }
    }
}
