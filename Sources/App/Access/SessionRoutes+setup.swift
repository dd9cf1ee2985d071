import Access
import HTTP

/// The owner's setup through the one-time link the server logs: making the owner, and asking
/// first whether the link can still make one, so the page says at once that a used link is
/// spent rather than after its form was filled in. Both count a wrong token against the
/// client, as every token and password guess is counted (429 with `Retry-After` past the limit).
extension SessionRoutes {
    struct Setup: Decodable {
        let token: String
        let username: String
        let password: String
    }

    struct SetupToken: Decodable {
        let token: String
    }

    /// `POST /setup`: makes the owner and signs them in (204).
    func setUp(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.decode(Setup.self, request)
        return try withSetupToken(request) {
            let owner = try control.store.completeSetup(token: body.token, name: body.username, password: body.password)
            control.logger.info("owner made with the setup link", [("user", owner.name), ("client", control.clients.of(request))])
            return try startSession(for: owner, replacing: request)
        }
    }

    /// `POST /setup/check` `{"token"}`: 204 while the token can make the owner, 403 once it was
    /// used (or never made), 409 once there is an owner; the token stays as it was.
    func checkSetup(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.decode(SetupToken.self, request)
        return try withSetupToken(request) {
            try control.store.checkSetup(token: body.token)
            return HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"])
        }
    }

    /// Runs `attempt` unless the client has guessed too many setup tokens; a token that is no
    /// (longer a) setup link's counts as a guess.
    private func withSetupToken(_ request: HTTPRequest, _ attempt: () throws -> HTTPResponse) throws -> HTTPResponse {
        let keys = control.throttleKeys(request)
        if let refusal = control.throttled(keys, what: "setup links") { throw refusal }
        do {
            return try attempt()
        } catch let error as AccessError {
            switch error.kind {
            case .invalid: throw HTTPError(.badRequest, error.description, headers: ["Cache-Control": "no-store"])
            case .conflict: throw HTTPError(.conflict, error.description, headers: ["Cache-Control": "no-store"])
            case .notFound:
                control.throttle.fail(keys)
                throw HTTPError(.forbidden, error.description, headers: ["Cache-Control": "no-store"])
            }
        }
    }
}
