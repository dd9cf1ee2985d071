/// Method and path-pattern routing. Built once before the server starts, then read-only.
public struct Router: Sendable {
    /// Default body limit for routes that do not state one: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20

    /// Every route in registration order; the first that matches wins.
    public private(set) var routes: [Route] = []
    /// Indices of routes by their first literal segment (`photos` for `/photos/:id`), so a request
    /// is tried only against routes that can match it; other routes are tried for every path.
    /// A short list compared byte-wise: a handful of first segments, cheaper than hashing one.
    private var byFirstLiteral: [(literal: [UInt8], routes: [Int])] = []
    private var anyFirstSegment: [Int] = []

    public init() {}

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
        _ handler: @escaping Handler
    ) {
        switch execution {
        case .inline:
            addReply(method, pattern, maxBodyBytes: maxBodyBytes, lane: lane) { request in .response(try handler(request)) }
        case .worker:
            addReply(method, pattern, maxBodyBytes: maxBodyBytes, lane: lane) { request in .offload { try handler(request) } }
        }
    }

    /// Adds a route whose handler runs on the event loop and decides itself whether to offload.
    public mutating func addReply(
        _ method: HTTPMethod, _ pattern: String,
        maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        lane: WorkLane = .general,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> Reply
    ) {
        let segments = Router.parse(pattern)
        let names = segments.compactMap { segment -> String? in
            switch segment {
            case .literal: nil
            case .parameter(let name, _), .rest(let name): name
            }
        }
        routes.append(Route(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, lane: lane, handler: handler,
                            segments: segments, parameterNames: names))
        if case .literal(let first) = segments.first {
            if let known = byFirstLiteral.firstIndex(where: { $0.literal == first }) {
                byFirstLiteral[known].routes.append(routes.count - 1)
            } else {
                byFirstLiteral.append((first, [routes.count - 1]))
            }
        } else {
            anyFirstSegment.append(routes.count - 1)
        }
    }

    public mutating func get(_ pattern: String, execution: Execution = .worker, lane: WorkLane = .general, _ handler: @escaping Handler) {
        add(.GET, pattern, execution: execution, lane: lane, handler)
    }

    public mutating func post(_ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes, lane: WorkLane = .general,
                              _ handler: @escaping Handler) {
        add(.POST, pattern, maxBodyBytes: maxBodyBytes, execution: .worker, lane: lane, handler)
    }

    public mutating func delete(_ pattern: String, lane: WorkLane = .general, _ handler: @escaping Handler) {
        add(.DELETE, pattern, execution: .worker, lane: lane, handler)
    }

    /// Finds the first route whose pattern matches `path`; HEAD matches GET routes.
    public func match(_ method: HTTPMethod, path: String) -> RouteMatch {
        // Native strings are contiguous UTF-8 and matched over their bytes as offsets; a bridged
        // string is first copied into one, so there is a single matcher.
        if let result = path.utf8.withContiguousStorageIfAvailable({ match(method, path: path, bytes: $0) }) { return result }
        var native = path
        native.makeContiguousUTF8()
        return match(method, path: native)
    }

    private func match(_ method: HTTPMethod, path: String, bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch {
        // Every pattern starts at '/'.
        guard bytes.first == UInt8(ascii: "/") else { return .notFound }
        var end = 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
        var parts = 1
        for i in end..<bytes.count where bytes[i] == UInt8(ascii: "/") { parts += 1 }
        // The list of routes under the first literal, by position: copying it out would retain it.
        var group = -1
        for i in byFirstLiteral.indices where byFirstLiteral[i].literal.count == end - 1
            && byFirstLiteral[i].literal.withUnsafeBufferPointer({ Router.same(bytes.baseAddress! + 1, $0, 0, end - 1) }) {
            group = i
            break
        }
        let literalCount = group >= 0 ? byFirstLiteral[group].routes.count : 0
        var allowed: [HTTPMethod] = []
        // Both lists ascend; walking them merged keeps registration order.
        var l = 0, a = 0
        while l < literalCount || a < anyFirstSegment.count {
            let index: Int
            if a == anyFirstSegment.count || (l < literalCount && byFirstLiteral[group].routes[l] < anyFirstSegment[a]) {
                index = byFirstLiteral[group].routes[l]
                l += 1
            } else {
                index = anyFirstSegment[a]
                a += 1
            }
            // By index, so only the route that matches is retained.
            let partCount = routes[index].partCount
            if partCount >= 0 && partCount != parts { continue }
            guard let bounds = Router.match(routes[index], bytes: bytes) else { continue }
            let routeMethod = routes[index].method
            if routeMethod == method || (method == .HEAD && routeMethod == .GET) {
                return .found(routes[index], parameters: RouteParameters(names: routes[index].parameterNames, source: path, bounds: bounds))
            }
            if !allowed.contains(routeMethod) { allowed.append(routeMethod) }
            if routeMethod == .GET && !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allow: allowed)
    }

    /// Routes and runs `request` in the calling thread, offloaded work included; errors become
    /// problem responses. For tests and tools; the server does the same across its loops and pool.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var request = request
        switch match(request.method, path: request.path) {
        case .notFound:
            return .problem(.notFound, detail: "No resource at \(request.path).")
        case .methodNotAllowed(let allow):
            return .problem(.methodNotAllowed, detail: "\(request.method) is not allowed on \(request.path).",
                            headers: ["Allow": allow.map(\.rawValue).joined(separator: ", ")])
        case .found(let route, let parameters):
            request.parameters = parameters
            request.routePattern = route.pattern
            do {
                switch try route.handler(request) {
                case .response(let response): return response
                case .encoded(let encoded): return HTTPResponse(encoded)
                case .offload(let work): return try work()
                case .offloadCapped(_, let work): return try work()
                }
            } catch let error as HTTPResponseError {
                return error.response
            } catch {
                return .problem(.internalServerError, detail: "The server could not answer this request.")
            }
        }
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

    /// Matches `path` against `route`'s pattern over the path's bytes: the start and end offset
    /// of each parameter in pattern order, or nil. Every cut is at '/' or before an ASCII suffix,
    /// so each parameter is whole UTF-8.
    static func match(_ route: Route, bytes path: UnsafeBufferPointer<UInt8>) -> RouteParameters.Bounds? {
        route.steps.withUnsafeBufferPointer { steps in
            route.literalBytes.withUnsafeBufferPointer { literals in match(steps, literals, path) }
        }
    }

    private static func match(_ steps: UnsafeBufferPointer<MatchStep>, _ literals: UnsafeBufferPointer<UInt8>,
                              _ path: UnsafeBufferPointer<UInt8>) -> RouteParameters.Bounds? {
        let count = path.count
        guard count > 0, let base = path.baseAddress, base[0] == UInt8(ascii: "/") else { return nil }
        var bounds = RouteParameters.Bounds()
        if steps.isEmpty { return count == 1 ? bounds : nil }
        // The start of the next part; `count + 1` once every part is used.
        var start = 1
        for n in 0..<steps.count {
            let step = steps[n]
            if step.kind == .rest {
                bounds.append(min(start, count), count)
                return n == steps.count - 1 ? bounds : nil
            }
            guard start <= count else { return nil }
            var end = start
            while end < count && base[end] != UInt8(ascii: "/") { end += 1 }
            if step.kind == .literal {
                guard end - start == step.count, same(base + start, literals, step.start, step.count) else { return nil }
            } else {
                // A parameter: something, then the suffix.
                let kept = end - start - step.count
                guard kept > 0, same(base + start + kept, literals, step.start, step.count) else { return nil }
                bounds.append(start, start + kept)
            }
            start = end + 1
        }
        // Parts left over mean no match (a trailing slash is a different resource).
        return start > count ? bounds : nil
    }

    /// Whether the `length` bytes at `bytes` are those of `literals` from `offset`.
    @inline(__always)
    private static func same(_ bytes: UnsafePointer<UInt8>, _ literals: UnsafeBufferPointer<UInt8>, _ offset: Int, _ length: Int) -> Bool {
        var i = 0
        while i < length {
            if bytes[i] != literals[offset + i] { return false }
            i += 1
        }
        return true
    }
}
