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

    /// Runs `route`'s handler on the calling thread; an error it throws becomes its response.
    @inline(__always)
    public func reply(to request: HTTPRequest, route: Route) -> Reply {
        do { return try route.handler(request) } catch { return .response(response(for: error, request: request)) }
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
    private func respondStreaming(to request: HTTPRequest, open: BodyOpener) -> HTTPResponse {
        let sink: any RequestBodySink
        do {
            switch try open(request) {
            case .response(let response): return response
            case .sink(let opened): sink = opened
            }
        } catch {
            return response(for: error, request: request)
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
        switch resolve(request.method, path: request.path) {
        case .refused(let error):
            return error.response
        case .route(let route, let parameters):
            var request = request
            request.parameters = parameters
            request.routePattern = route.pattern
            if let open = route.bodyOpener { return respondStreaming(to: request, open: open) }
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
