/// Where a route's handler runs.
public enum Execution: Sendable {
    /// On the event loop: only for handlers that never block (memory lookups, small JSON).
    case inline
    /// On the worker pool, so a slow handler (disk, SQLite, libvips) never stalls a loop.
    case worker
}

/// What a handler gives back: a response now, or work for the worker pool that yields one.
public enum Reply: Sendable {
    case response(HTTPResponse)
    /// Run on the worker pool; lets an inline handler answer a cache hit at once and offload a miss.
    case offload(@Sendable () throws -> HTTPResponse)
}

/// A handler that answers with a response.
public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// One registered route.
public struct Route: Sendable {
    public let method: HTTPMethod
    /// e.g. `/photos/:id/tiles/:z/:x/:y.jpg`; `:name` captures one segment, `:name.ext` one segment
    /// ending in `.ext`, and a final `*name` captures the rest of the path.
    public let pattern: String
    /// The largest request body accepted; a larger one is answered 413 before it is read.
    public let maxBodyBytes: Int
    public let handler: @Sendable (HTTPRequest) throws -> Reply
    let segments: [PatternSegment]
}

enum PatternSegment: Sendable, Equatable {
    case literal(String)
    case parameter(name: String, suffix: String)
    case rest(name: String)
}

/// The outcome of looking a method and path up.
public enum RouteMatch: Sendable {
    case found(Route, parameters: [String: String])
    /// The path exists for other methods; the list is the `Allow` header's.
    case methodNotAllowed(allow: [HTTPMethod])
    case notFound
}

/// Method and path-pattern routing. Built once before the server starts, then read-only.
public struct Router: Sendable {
    /// Default body limit for routes that do not state one: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20

    /// Every route in registration order; the first that matches wins.
    public private(set) var routes: [Route] = []
    /// Indices of routes by their first literal segment (`photos` for `/photos/:id`), so a request
    /// is tried only against routes that can match it; other routes are tried for every path.
    private var byFirstLiteral: [Substring: [Int]] = [:]
    private var anyFirstSegment: [Int] = []

    public init() {}

    /// Adds a route whose handler answers with a response, running where `execution` says.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String,
        maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        execution: Execution = .worker,
        _ handler: @escaping Handler
    ) {
        switch execution {
        case .inline:
            addReply(method, pattern, maxBodyBytes: maxBodyBytes) { request in .response(try handler(request)) }
        case .worker:
            addReply(method, pattern, maxBodyBytes: maxBodyBytes) { request in .offload { try handler(request) } }
        }
    }

    /// Adds a route whose handler runs on the event loop and decides itself whether to offload.
    public mutating func addReply(
        _ method: HTTPMethod, _ pattern: String,
        maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> Reply
    ) {
        let segments = Router.parse(pattern)
        routes.append(Route(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, handler: handler, segments: segments))
        if case .literal(let first) = segments.first {
            byFirstLiteral[Substring(first), default: []].append(routes.count - 1)
        } else {
            anyFirstSegment.append(routes.count - 1)
        }
    }

    public mutating func get(_ pattern: String, execution: Execution = .worker, _ handler: @escaping Handler) {
        add(.GET, pattern, execution: execution, handler)
    }

    public mutating func post(_ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes, _ handler: @escaping Handler) {
        add(.POST, pattern, maxBodyBytes: maxBodyBytes, execution: .worker, handler)
    }

    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) {
        add(.DELETE, pattern, execution: .worker, handler)
    }

    /// Finds the first route whose pattern matches `path`; HEAD matches GET routes.
    public func match(_ method: HTTPMethod, path: String) -> RouteMatch {
        var allowed: [HTTPMethod] = []
        let literal = byFirstLiteral[Router.firstSegment(of: path)] ?? []
        // Both lists ascend; walking them merged keeps registration order.
        var l = 0, a = 0
        while l < literal.count || a < anyFirstSegment.count {
            let index: Int
            if a == anyFirstSegment.count || (l < literal.count && literal[l] < anyFirstSegment[a]) {
                index = literal[l]
                l += 1
            } else {
                index = anyFirstSegment[a]
                a += 1
            }
            // By index, so only the route that matches is copied (a copy retains each of its fields).
            guard let parameters = Router.match(routes[index].segments, path) else { continue }
            let routeMethod = routes[index].method
            if routeMethod == method || (method == .HEAD && routeMethod == .GET) {
                return .found(routes[index], parameters: parameters)
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
                case .offload(let work): return try work()
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
                    return .parameter(name: String(body[..<dot]), suffix: String(body[dot...]))
                }
                return .parameter(name: String(body), suffix: "")
            }
            return .literal(String(part))
        }
    }

    /// The first segment of `path` (`photos` for `/photos/3`), without copying it.
    static func firstSegment(of path: String) -> Substring {
        let utf8 = path.utf8
        guard let first = utf8.first, first == UInt8(ascii: "/") else { return Substring(path) }
        let start = utf8.index(after: utf8.startIndex)
        // Over the contiguous bytes when there are some; the slices stay on the UTF-8 view, so
        // no Character boundaries are looked for ('/' is ASCII, every cut is a scalar boundary).
        let offset = utf8.withContiguousStorageIfAvailable { bytes in
            bytes[1...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
        }
        let end = offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
            ?? utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
        return Substring(utf8[start..<end])
    }

    /// Matches `path` segment by segment in place: no array of parts per route and request.
    static func match(_ segments: [PatternSegment], _ path: String) -> [String: String]? {
        // Native strings are contiguous UTF-8: matched over the bytes as offsets, which costs a
        // fraction of the same work on String indices. Bridged strings take the index walk.
        if let result = path.utf8.withContiguousStorageIfAvailable({ match(segments, bytes: $0) }) { return result }
        return matchIndices(segments, path)
    }

    /// `match` over the path's bytes. Every cut is at '/' or before an ASCII suffix, so each
    /// parameter is whole UTF-8 and decodes to the same text the index walk would cut.
    static func match(_ segments: [PatternSegment], bytes: UnsafeBufferPointer<UInt8>) -> [String: String]? {
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        if segments.isEmpty { return bytes.count == 1 ? [:] : nil }
        if segments.count == 1, case .rest(let name) = segments[0] {
            return [name: String(decoding: UnsafeBufferPointer(rebasing: bytes[1...]), as: UTF8.self)]
        }
        var parameters: [String: String] = [:]
        parameters.reserveCapacity(segments.count)
        // The start of the next part; nil once every part is used.
        var cursor: Int? = 1
        for (n, segment) in segments.enumerated() {
            if case .rest(let name) = segment {
                parameters[name] = cursor.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0...]), as: UTF8.self) } ?? ""
                return n == segments.count - 1 ? parameters : nil
            }
            guard let start = cursor else { return nil }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
            let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
            cursor = end < bytes.count ? end + 1 : nil
            switch segment {
            case .literal(let literal):
                guard equal(part, literal) else { return nil }
            case .parameter(let name, let suffix):
                let kept = part.count - suffix.utf8.count
                guard kept > 0, equal(UnsafeBufferPointer(rebasing: part[kept...]), suffix) else { return nil }
                parameters[name] = String(decoding: UnsafeBufferPointer(rebasing: part[..<kept]), as: UTF8.self)
            case .rest:
                break
            }
        }
        // Parts left over mean no match (a trailing slash is a different resource).
        return cursor == nil ? parameters : nil
    }

    /// Whether `bytes` spell `text` exactly.
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        guard bytes.count == text.utf8.count else { return false }
        return text.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(bytes) } ?? text.utf8.elementsEqual(bytes)
    }

    /// `match` on String indices, for strings without contiguous UTF-8.
    static func matchIndices(_ segments: [PatternSegment], _ path: String) -> [String: String]? {
        let utf8 = path.utf8
        guard let first = utf8.first, first == UInt8(ascii: "/") else { return nil }
        // The two shapes every static request meets: `/` (only the root) and `/*rest` (anything).
        if segments.isEmpty { return utf8.count == 1 ? [:] : nil }
        if segments.count == 1, case .rest(let name) = segments[0] {
            return [name: String(path[utf8.index(after: utf8.startIndex)...])]
        }
        var parameters: [String: String] = [:]
        // One allocation for every parameter, instead of regrowing per insert.
        parameters.reserveCapacity(segments.count)
        // The start of the next part; nil once every part is used.
        var cursor: String.Index? = utf8.index(after: utf8.startIndex)
        for (n, segment) in segments.enumerated() {
            if case .rest(let name) = segment {
                parameters[name] = cursor.map { String(path[$0...]) } ?? ""
                return n == segments.count - 1 ? parameters : nil
            }
            guard let start = cursor else { return nil }
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "/"))
            // Cut, compared and trimmed on the UTF-8 view: '/' and the ASCII suffixes of patterns
            // are scalar boundaries, so no Character boundaries need finding (that was most of a match).
            let part = utf8[start..<(end ?? utf8.endIndex)]
            cursor = end.map { utf8.index(after: $0) }
            switch segment {
            case .literal(let literal):
                guard part.elementsEqual(literal.utf8) else { return nil }
            case .parameter(let name, let suffix):
                let suffixCount = suffix.utf8.count
                guard part.count > suffixCount, part.suffix(suffixCount).elementsEqual(suffix.utf8) else { return nil }
                parameters[name] = String(Substring(part.dropLast(suffixCount)))
            case .rest:
                break
            }
        }
        // Parts left over mean no match (a trailing slash is a different resource), except for the root.
        if cursor != nil && !(segments.isEmpty && path == "/") { return nil }
        return parameters
    }
}
