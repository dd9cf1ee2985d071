import Observability

/// How a request is answered once its head is read: the route or the 404/405 refusal, the
/// handler's reply, a thrown error as its problem response. The server calls these pieces from
/// its loops and pool; `respond(to:)` calls the same ones on one thread, for tests and tools,
/// so there is no second path to keep in step.
///
/// A class: each connection of a loop holds the loop's one responder by reference, so copying a
/// connection's state copies one reference rather than every array of the routes.
public final class Responder: Sendable {
    public let router: Router
    /// Where a handler's unexpected error is logged.
    let logger: Logger

    public init(router: Router, logger: Logger = .disabled) {
        self.router = router
        self.logger = logger
    }

    /// What a method and path lead to.
    public enum Resolution: Sendable {
        case route(Route, RouteParameters)
        /// 404 for a path no route has, 405 with `Allow` for one that exists for other methods.
        case refused(HTTPError)
    }

    /// The route for `method` on `path`, or the refusal to answer with.
    public func resolve(_ method: HTTPMethod, path: String) -> Resolution {
        switch router.match(method, path: path) {
        case .found(let route, let parameters):
            .route(route, parameters)
        case .notFound:
            .refused(HTTPError(.notFound, "No resource at \(path)."))
        case .methodNotAllowed(let allow):
            .refused(HTTPError(.methodNotAllowed, "\(method) is not allowed on \(path).",
                               headers: ["Allow": allow.map(\.rawValue).joined(separator: ", ")]))
        }
    }

    /// Asks `route`'s access rule, then runs its handler on the calling thread; an error it
    /// throws becomes its response. A rule that must look something up first moves the lookup
    /// and the handler to the route's lane.
    @inline(__always)
    public func reply(to request: HTTPRequest, route: Route) -> Reply {
        if let rule = route.access {
            switch rule.admit(request) {
            case .granted: break
            case .refused(let refusal): return .response(refusal)
            case .deferred(let check):
                return .offload { [self] in
                    if let refusal = check() { return refusal }
                    return try complete(request, route: route)
                }
            }
        } else if router.requiresAccessRules {
            logger.error("route without an access rule", [("route", route.pattern)])
            return .response(.problem(.internalServerError, detail: "The server could not answer this request."))
        }
        do { return try route.handler(request) } catch { return .response(response(for: error, request: request)) }
    }

    /// Asks `route`'s rule, then where its streamed body goes, on the calling thread (a worker):
    /// a refused request never reaches `open`, so no byte of its body is taken in.
    public func openBody(_ request: HTTPRequest, route: Route, open: BodyOpener) -> BodyStart {
        if let refusal = admission(request, route: route) { return .response(refusal) }
        do { return try open(request) } catch { return .response(response(for: error, request: request)) }
    }

    /// The refusal of `route`'s rule, decided on the calling thread (a decision that needs the
    /// database included), or nil to go on.
    private func admission(_ request: HTTPRequest, route: Route) -> HTTPResponse? {
        guard let rule = route.access else {
            guard router.requiresAccessRules else { return nil }
            logger.error("route without an access rule", [("route", route.pattern)])
            return .problem(.internalServerError, detail: "The server could not answer this request.")
        }
        switch rule.admit(request) {
        case .granted: return nil
        case .refused(let refusal): return refusal
        case .deferred(let check): return check()
        }
    }

    /// The handler's whole answer, its offloaded part included, on the calling thread.
    private func complete(_ request: HTTPRequest, route: Route) throws -> HTTPResponse {
        switch try route.handler(request) {
        case .response(let response): return response
        case .encoded(let encoded): return HTTPResponse(encoded)
        case .offload(let work): return try work()
        case .offloadCapped(_, let work): return try work()
        case .order(let order): return try order.work(WorkTicket())
        }
    }

    /// Runs work a handler offloaded (on whichever thread the caller chose); an error becomes its response.
    @inline(__always)
    public func run(_ work: () throws -> HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        do { return try work() } catch { return response(for: error, request: request) }
    }

    /// The response for an error thrown by a handler: its own status if it is an HTTPResponseError,
    /// otherwise a logged 500 that tells the client nothing of the internals.
    public func response(for error: Error, request: HTTPRequest) -> HTTPResponse {
        if let error = error as? HTTPResponseError { return error.response }
        logger.error("handler failed", [("method", request.method.rawValue), ("path", request.path), ("error", String(describing: error))])
        return .problem(.internalServerError, detail: "The server could not answer this request.")
    }

    /// A streaming route's answer on the calling thread: the body handed to its sink in pieces
    /// of the size the server uses.
    private func respondStreaming(to request: HTTPRequest, route: Route, open: BodyOpener) -> HTTPResponse {
        let sink: any RequestBodySink
        switch openBody(request, route: route, open: open) {
        case .response(let response): return response
        case .sink(let opened): sink = opened
        }
        let body = request.body
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + ConnectionMachine.streamPieceBytes)
            do { try sink.write(Array(body[offset..<end])) } catch {
                sink.abandon()
                return response(for: error, request: request)
            }
            offset = end
        }
        return run({ try sink.finish() }, for: request)
    }

    /// Answers `request` whole on the calling thread, offloaded work included: what the server's
    /// handler would hand its connection, before the generic preparation (ranges, 304, gzip, HEAD).
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if let refusal = router.allowedHosts.refusal(forHost: request.headers["Host"]) { return refusal.response }
        switch resolve(request.method, path: request.path) {
        case .refused(let error):
            return error.response
        case .route(let route, let parameters):
            var request = request
            request.parameters = parameters
            request.routePattern = route.pattern
            if let open = route.bodyOpener { return respondStreaming(to: request, route: route, open: open) }
            switch reply(to: request, route: route) {
            case .response(let response): return response
            case .encoded(let encoded): return HTTPResponse(encoded)
            case .offload(let work): return run(work, for: request)
            case .offloadCapped(_, let work): return run(work, for: request)
            case .order(let order): return run({ try order.work(WorkTicket()) }, for: request)
            }
        }
    }
}
