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
    /// A cached answer with its head fields encoded once: a plain GET of it is sent without
    /// building a response at all.
    case encoded(EncodedResponse)
    /// Run on the worker pool, in the route's lane; lets an inline handler answer a cache hit at
    /// once and offload a miss.
    case offload(@Sendable () throws -> HTTPResponse)
    /// Like `offload`, started only once every cap allows it (renders per photo, per client);
    /// until then it waits in the lane's queue without holding a thread.
    case offloadCapped([WorkCap], @Sendable () throws -> HTTPResponse)
}

/// A handler that answers with a response.
public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// One registered route. A reference: a match hands it to the request's whole way through the
/// connection, and copying one reference costs a fraction of copying (retaining) every field.
public final class Route: Sendable {
    public let method: HTTPMethod
    /// e.g. `/photos/:id/tiles/:z/:x/:y.jpg`; `:name` captures one segment, `:name.ext` one segment
    /// ending in `.ext`, and a final `*name` captures the rest of the path.
    public let pattern: String
    /// The largest request body accepted; a larger one is answered 413 before it is read.
    public let maxBodyBytes: Int
    /// Where its offloaded work runs.
    public let lane: WorkLane
    public let handler: @Sendable (HTTPRequest) throws -> Reply
    let segments: [PatternSegment]
    /// The names of the pattern's parameters in order, shared by every match of this route.
    let parameterNames: [String]
    /// `segments` as plain numbers over `literalBytes`, which matching walks without reference counting.
    let steps: [MatchStep]
    /// Every literal and suffix of the pattern, end to end.
    let literalBytes: [UInt8]
    /// How many `/`-separated parts a matching path has; -1 when that varies (a final `*name`)
    /// or for the root pattern. Paths with another count are passed over without matching.
    let partCount: Int

    init(method: HTTPMethod, pattern: String, maxBodyBytes: Int, lane: WorkLane = .general,
         handler: @escaping @Sendable (HTTPRequest) throws -> Reply, segments: [PatternSegment], parameterNames: [String]) {
        self.method = method
        self.pattern = pattern
        self.maxBodyBytes = maxBodyBytes
        self.lane = lane
        self.handler = handler
        self.segments = segments
        self.parameterNames = parameterNames
        var steps: [MatchStep] = []
        var literalBytes: [UInt8] = []
        for segment in segments {
            let start = literalBytes.count
            switch segment {
            case .literal(let literal):
                literalBytes += literal
                steps.append(MatchStep(kind: .literal, start: start, count: literal.count))
            case .parameter(_, let suffix):
                literalBytes += suffix
                steps.append(MatchStep(kind: .parameter, start: start, count: suffix.count))
            case .rest:
                steps.append(MatchStep(kind: .rest, start: start, count: 0))
            }
        }
        self.steps = steps
        self.literalBytes = literalBytes
        self.partCount = segments.isEmpty || segments.contains { if case .rest = $0 { true } else { false } } ? -1 : segments.count
    }

    /// The same route in a new object, for an event loop of its own (see `Router.copyingRoutes`).
    func copy() -> Route {
        Route(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, lane: lane, handler: handler, segments: segments,
              parameterNames: parameterNames)
    }
}

/// One segment of a compiled pattern: a literal, or a parameter with its suffix (`count` bytes
/// of the route's `literalBytes` from `start`), or the rest of the path.
struct MatchStep: Sendable {
    enum Kind: Sendable { case literal, parameter, rest }
    var kind: Kind
    var start: Int
    var count: Int
}

/// One segment of a route pattern; literals and suffixes are kept as the UTF-8 bytes a path is
/// compared with.
enum PatternSegment: Sendable, Equatable {
    case literal([UInt8])
    case parameter(name: String, suffix: [UInt8])
    case rest(name: String)
}

/// The outcome of looking a method and path up.
public enum RouteMatch: Sendable {
    case found(Route, parameters: RouteParameters)
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

/// The values a route pattern captured (`:id` → `parameters["id"]`), read by name.
///
/// Kept as offsets into the request path under the route's own list of names, and cut into a
/// string only when a handler reads one: matching a route allocates and hashes nothing, and a
/// handful of names are found by comparison, faster than hashing them into a dictionary.
public struct RouteParameters: Sendable, Equatable, CustomStringConvertible, ExpressibleByDictionaryLiteral {
    /// Start and end UTF-8 offsets of each value, in pattern order: in place for the first four
    /// (enough for every route here), in an array beyond.
    @usableFromInline
    struct Bounds: Sendable {
        @usableFromInline static let inlineCount = 4
        @usableFromInline var inline = InlineArray<8, UInt32>(repeating: 0)
        @usableFromInline var more: [Int] = []
        @usableFromInline private(set) var count = 0

        init() {}

        // The in-place case inlined into the matcher, the rare array case kept out of it.
        @inline(__always)
        mutating func append(_ start: Int, _ end: Int) {
            if count < Self.inlineCount {
                inline[2 * count] = UInt32(start)
                inline[2 * count + 1] = UInt32(end)
                count += 1
            } else {
                appendMore(start, end)
            }
        }

        @inline(never)
        private mutating func appendMore(_ start: Int, _ end: Int) {
            more.append(start)
            more.append(end)
            count += 1
        }

        @inlinable
        subscript(position: Int) -> Range<Int> {
            if position < Self.inlineCount { return Int(inline[2 * position])..<Int(inline[2 * position + 1]) }
            let i = 2 * (position - Self.inlineCount)
            return more[i]..<more[i + 1]
        }
    }

    // Inlinable into the handlers' modules, so reading a parameter is specialized there
    // rather than going through generic metadata at run time.
    /// The parameter names of the route that matched, in pattern order.
    @usableFromInline let names: [String]
    /// The text the values are cut from: the request path, or the values laid end to end.
    @usableFromInline let source: String
    @usableFromInline let bounds: Bounds

    /// No parameters.
    public init() {
        self.init(names: [], source: "", bounds: Bounds())
    }

    init(names: [String], source: String, bounds: Bounds) {
        self.names = names
        self.source = source
        self.bounds = bounds
    }

    /// Parameters given by hand, e.g. `["id": "3"]` for a handler called without a router.
    public init(dictionaryLiteral elements: (String, String)...) {
        var source = String()
        var bounds = Bounds()
        for (_, value) in elements {
            let start = source.utf8.count
            source.append(value)
            bounds.append(start, source.utf8.count)
        }
        self.init(names: elements.map(\.0), source: source, bounds: bounds)
    }

    /// How many values the pattern captured.
    @inlinable public var count: Int { bounds.count }

    /// Whether the pattern captured nothing.
    @inlinable public var isEmpty: Bool { bounds.count == 0 }

    /// The value captured as `name`, or nil when the pattern has no such parameter.
    @inlinable
    public subscript(name: String) -> String? {
        guard let position = position(of: name) else { return nil }
        return withBytes(at: position) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the value captured as `name`, without making a
    /// string of it (numbers in paths are parsed straight from these); nil when there is no such parameter.
    @inlinable
    public func withUTF8<Result>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        guard let position = position(of: name) else { return nil }
        return try withBytes(at: position, body)
    }

    /// Like `withUTF8(_:_:)`, looking at `position` first: a handler that knows where its pattern
    /// puts a name skips the search (a wrong hint only costs the search).
    @inlinable
    public func withUTF8<Result>(_ name: String, at position: Int,
                                 _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        if position >= 0, position < min(names.count, bounds.count), names[position] == name {
            return try withBytes(at: position, body)
        }
        return try withUTF8(name, body)
    }

    @inlinable
    func position(of name: String) -> Int? {
        // A few short names: comparing them beats hashing one.
        for position in 0..<min(names.count, bounds.count) where names[position] == name { return position }
        return nil
    }

    @inlinable
    func withBytes<Result>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let range = bounds[position]
        // The source is native UTF-8 (the router copies a bridged path into one before matching).
        if let result = try source.utf8.withContiguousStorageIfAvailable({ try body(UnsafeBufferPointer(rebasing: $0[range])) }) {
            return result
        }
        var copy = source
        return try copy.withUTF8 { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Name and value pairs in pattern order.
    public var pairs: [(name: String, value: String)] {
        (0..<bounds.count).map { position in (names[position], withBytes(at: position) { String(decoding: $0, as: UTF8.self) }) }
    }

    /// The same names with the same values, whatever their order.
    public static func == (lhs: RouteParameters, rhs: RouteParameters) -> Bool {
        lhs.count == rhs.count && lhs.pairs.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// Like a dictionary's: `["id": "3", "z": "2"]`, in pattern order.
    public var description: String {
        isEmpty ? "[:]" : "[" + pairs.map { "\"\($0.name)\": \"\($0.value)\"" }.joined(separator: ", ") + "]"
    }
}
