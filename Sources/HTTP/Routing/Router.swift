/// Method and path-pattern routing. Built once before the server starts, then read-only.
public struct Router: Sendable {
    /// Default body limit for routes that do not state one: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20

    /// Every route in registration order, which decides nothing: the trie picks the route.
    public private(set) var routes: [Route] = []
    private var trie = RouteTrie([])
    /// Whether every route must be added with an `access` rule of its own. A route added
    /// without one is a programming error, stopped at once (at start, before anything is
    /// served); the responder also refuses to run such a route.
    public let requiresAccessRules: Bool
    /// The names requests may give in `Host`; any other is refused (421) before it is routed.
    public var allowedHosts = AllowedHosts.any

    /// A router; with `requiringAccessRules`, every route needs `access:` (an application's
    /// router), without, routes that give none are open to anyone.
    public init(requiringAccessRules: Bool = false) {
        self.requiresAccessRules = requiringAccessRules
    }

    /// The same routes as new objects, sharing their handlers. A server gives each event loop
    /// its own: a route is retained by every request it matches, and a reference count two
    /// cores update by turns moves its cache line between them each time.
    func copyingRoutes() -> Router {
        var copy = self
        copy.routes = routes.map { $0.copy() }
        return copy
    }

    /// Adds a route whose handler answers with a response, running where `execution` says.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String,
        maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        execution: Execution = .worker,
        lane: WorkLane = .general,
        access: (any AccessRule)? = nil,
        _ handler: @escaping Handler
    ) {
        switch execution {
        case .inline:
            addReply(method, pattern, maxBodyBytes: maxBodyBytes, lane: lane, access: access) { request in .response(try handler(request)) }
        case .worker:
            addReply(method, pattern, maxBodyBytes: maxBodyBytes, lane: lane, access: access) { request in .offload { try handler(request) } }
        }
    }

    /// Adds a route whose handler runs on the event loop and decides itself whether to offload.
    public mutating func addReply(
        _ method: HTTPMethod, _ pattern: String,
        maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        lane: WorkLane = .general,
        access: (any AccessRule)? = nil,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> Reply
    ) {
        precondition(access != nil || !requiresAccessRules, "\(method) \(pattern) was added without an access rule")
        let segments = Router.parse(pattern)
        let names = segments.compactMap { segment -> String? in
            switch segment {
            case .literal: nil
            case .parameter(let name, _), .rest(let name): name
            }
        }
        routes.append(Route(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, lane: lane,
                            access: access, handler: handler,
                            segments: segments, parameterNames: names))
        // A few dozen routes, registered once: rebuilding the whole trie each time is simplest.
        trie = RouteTrie(routes)
    }

    /// Adds a route that takes its body as a stream (see `RequestBodySink`): `open` runs on a
    /// worker of `lane` once the head is read and `access` has let the request in, and decides
    /// whether and where the body goes. `maxBodyBytes` is still checked against `Content-Length`
    /// (413) before anything runs.
    public mutating func addStreaming(_ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int, lane: WorkLane = .general,
                                      access: (any AccessRule)? = nil, open: @escaping BodyOpener) {
        precondition(access != nil || !requiresAccessRules, "\(method) \(pattern) was added without an access rule")
        let segments = Router.parse(pattern)
        let names = segments.compactMap { segment -> String? in
            switch segment {
            case .literal: nil
            case .parameter(let name, _), .rest(let name): name
            }
        }
        let unused: @Sendable (HTTPRequest) throws -> Reply = { _ in
            .response(.problem(.internalServerError, detail: "The server could not answer this request."))
        }
        routes.append(Route(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, lane: lane, access: access, handler: unused,
                            bodyOpener: open, segments: segments, parameterNames: names))
        trie = RouteTrie(routes)
    }

    public mutating func get(_ pattern: String, execution: Execution = .worker, lane: WorkLane = .general,
                             access: (any AccessRule)? = nil, _ handler: @escaping Handler) {
        add(.GET, pattern, execution: execution, lane: lane, access: access, handler)
    }

    public mutating func post(_ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes, lane: WorkLane = .general,
                              access: (any AccessRule)? = nil, _ handler: @escaping Handler) {
        add(.POST, pattern, maxBodyBytes: maxBodyBytes, execution: .worker, lane: lane, access: access, handler)
    }

    public mutating func delete(_ pattern: String, lane: WorkLane = .general, access: (any AccessRule)? = nil,
                                _ handler: @escaping Handler) {
        add(.DELETE, pattern, execution: .worker, lane: lane, access: access, handler)
    }

    /// Finds the route for `method` on `path` (see `RouteTrie` for which one wins); HEAD matches GET routes.
    public func match(_ method: HTTPMethod, path: String) -> RouteMatch {
        // Native strings are contiguous UTF-8 and matched over their bytes as offsets; a bridged
        // string is first copied into one, so there is a single matcher.
        if let result = path.utf8.withContiguousStorageIfAvailable({ match(method, path: path, bytes: $0) }) { return result }
        var native = path
        native.makeContiguousUTF8()
        return match(method, path: native)
    }

    private func match(_ method: HTTPMethod, path: String, bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch {
        var allowed: [HTTPMethod] = []
        if let found = trie.match(method, path: bytes, allowed: &allowed) {
            // By index, so only the route that matched is retained.
            return .found(routes[found.route], parameters: RouteParameters(names: routes[found.route].parameterNames, source: path,
                                                                          bounds: found.bounds))
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allow: Router.allowOrder(allowed))
    }

    /// `Allow` lists GET and HEAD first, then the other methods by name: the same for any registration order.
    static func allowOrder(_ methods: [HTTPMethod]) -> [HTTPMethod] {
        func rank(_ method: HTTPMethod) -> Int { method == .GET ? 0 : method == .HEAD ? 1 : 2 }
        return methods.sorted { rank($0) != rank($1) ? rank($0) < rank($1) : $0.rawValue < $1.rawValue }
    }

    static func parse(_ pattern: String) -> [PatternSegment] {
        pattern.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part.hasPrefix("*") { return .rest(name: String(part.dropFirst())) }
            if part.hasPrefix(":") {
                let body = part.dropFirst()
                if let dot = body.firstIndex(of: ".") {
                    return .parameter(name: String(body[..<dot]), suffix: Array(body[dot...].utf8))
                }
                return .parameter(name: String(body), suffix: [])
            }
            return .literal(Array(part.utf8))
        }
    }
}
