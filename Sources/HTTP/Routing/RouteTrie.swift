import POSIX

/// The routes' patterns as a tree of path segments, so which route answers a path depends on the
/// patterns alone, never on the order they were registered in.
///
/// At each segment a literal beats a parameter (the longest suffix first: `:y.jpg` before `:y`),
/// and a parameter beats a final `*name`; when the better branch finds no route further down,
/// the next one is tried. The first matching route, in that order, whose method fits answers;
/// only two routes with the same pattern and method depend on registration (the first is kept).
///
/// Built once per registration into flat arrays that matching walks by index over the path's
/// bytes: a match retains nothing and allocates nothing unless it ends in 405.
struct RouteTrie: Sendable {
    /// The routes that have matched up to one segment of a path.
    struct Node: Sendable {
        /// Children behind a literal segment are `edges[literalStart..<parameterStart]`, behind a
        /// parameter `edges[parameterStart..<edgeEnd]`, longest suffix first.
        var literalStart = 0, parameterStart = 0, edgeEnd = 0
        /// Routes whose pattern ends here, by registration: `endpoints[endStart..<endEnd]`.
        var endStart = 0, endEnd = 0
        /// Routes whose pattern ends in `*name` here: `endpoints[restStart..<restEnd]`.
        var restStart = 0, restEnd = 0
    }

    /// A literal segment or a parameter's suffix (`count` bytes of `bytes` from `start`), and the node behind it.
    struct Edge: Sendable {
        var start: Int
        var count: Int
        var child: Int
    }

    struct Endpoint: Sendable {
        var method: HTTPMethod
        var route: Int
    }

    /// A match: the route's index in registration order and where its parameters are in the path.
    struct Found {
        var route: Int
        var bounds: RouteParameters.Bounds
    }

    private var nodes: [Node] = []
    private var edges: [Edge] = []
    private var bytes: [UInt8] = []
    private var endpoints: [Endpoint] = []

    init(_ routes: [Route]) {
        // A tree of drafts first, flattened breadth first so that each node's children are adjacent.
        final class Draft {
            var literals: [(bytes: [UInt8], node: Draft)] = []
            /// By suffix.
            var parameters: [(bytes: [UInt8], node: Draft)] = []
            var ends: [Int] = []
            var rests: [Int] = []

            static func child(_ list: inout [(bytes: [UInt8], node: Draft)], _ bytes: [UInt8]) -> Draft {
                if let known = list.first(where: { $0.bytes == bytes }) { return known.node }
                let node = Draft()
                list.append((bytes, node))
                return node
            }
        }
        let root = Draft()
        for (index, route) in routes.enumerated() {
            var node = root
            var ends = true
            for (position, segment) in route.segments.enumerated() {
                switch segment {
                case .literal(let literal):
                    node = Draft.child(&node.literals, literal)
                case .parameter(_, let suffix):
                    node = Draft.child(&node.parameters, suffix)
                case .rest:
                    // Only a final `*name` matches anything.
                    if position == route.segments.count - 1 { node.rests.append(index) }
                    ends = false
                }
                if !ends { break }
            }
            if ends { node.ends.append(index) }
        }

        var drafts = [root]
        var next = 0
        while next < drafts.count {
            let draft = drafts[next]
            next += 1
            var node = Node()
            node.literalStart = edges.count
            // Any order would do among literals (one at most can match). Sorted by length, then
            // bytes: the tree is the same for any registration, and a walk stops at the first
            // literal longer than its segment.
            let literals = draft.literals.sorted {
                $0.bytes.count != $1.bytes.count ? $0.bytes.count < $1.bytes.count : $0.bytes.lexicographicallyPrecedes($1.bytes)
            }
            for (literal, child) in literals {
                edges.append(Edge(start: bytes.count, count: literal.count, child: drafts.count))
                bytes += literal
                drafts.append(child)
            }
            node.parameterStart = edges.count
            let parameters = draft.parameters.sorted {
                $0.bytes.count != $1.bytes.count ? $0.bytes.count > $1.bytes.count : $0.bytes.lexicographicallyPrecedes($1.bytes)
            }
            for (suffix, child) in parameters {
                edges.append(Edge(start: bytes.count, count: suffix.count, child: drafts.count))
                bytes += suffix
                drafts.append(child)
            }
            node.edgeEnd = edges.count
            node.endStart = endpoints.count
            endpoints += draft.ends.map { Endpoint(method: routes[$0].method, route: $0) }
            node.endEnd = endpoints.count
            node.restStart = endpoints.count
            endpoints += draft.rests.map { Endpoint(method: routes[$0].method, route: $0) }
            node.restEnd = endpoints.count
            nodes.append(node)
        }
    }

    /// The route for `method` on `path` (HEAD is answered by GET routes), or nil with `allowed`
    /// holding the methods of the routes whose pattern matches it (empty: no such path).
    func match(_ method: HTTPMethod, path: UnsafeBufferPointer<UInt8>, allowed: inout [HTTPMethod]) -> Found? {
        // Every pattern starts at '/'.
        guard path.count > 0, path[0] == UInt8(ascii: "/"), !nodes.isEmpty else { return nil }
        return nodes.withUnsafeBufferPointer { nodes in
            edges.withUnsafeBufferPointer { edges in
                bytes.withUnsafeBufferPointer { bytes in
                    endpoints.withUnsafeBufferPointer { endpoints in
                        var walk = Walk(nodes: nodes, edges: edges, bytes: bytes, endpoints: endpoints, path: path, method: method)
                        // "/" has no segments at all: it is used up from the start.
                        let first = path.count == 1 ? 2 : 1
                        if let route = walk.straight(start: first) { return Found(route: route, bounds: walk.bounds) }
                        walk.bounds = RouteParameters.Bounds()
                        let route = walk.visit(0, start: first)
                        allowed = walk.allowed
                        return route >= 0 ? Found(route: route, bounds: walk.bounds) : nil
                    }
                }
            }
        }
    }

    /// One match in progress over borrowed views of the trie.
    private struct Walk {
        let nodes: UnsafeBufferPointer<Node>
        let edges: UnsafeBufferPointer<Edge>
        let bytes: UnsafeBufferPointer<UInt8>
        let endpoints: UnsafeBufferPointer<Endpoint>
        let path: UnsafeBufferPointer<UInt8>
        let method: HTTPMethod
        var allowed: [HTTPMethod] = []
        var bounds = RouteParameters.Bounds()

        init(nodes: UnsafeBufferPointer<Node>, edges: UnsafeBufferPointer<Edge>, bytes: UnsafeBufferPointer<UInt8>,
             endpoints: UnsafeBufferPointer<Endpoint>, path: UnsafeBufferPointer<UInt8>, method: HTTPMethod) {
            self.nodes = nodes
            self.edges = edges
            self.bytes = bytes
            self.endpoints = endpoints
            self.path = path
            self.method = method
        }

        /// The first path `visit` would try, followed without backing out of anything: at each
        /// segment the first branch in order that takes it (a literal, else the first parameter
        /// whose suffix fits, else `*name`). When it ends in a route for the method, that is the
        /// route `visit` finds, because `visit` tries that path first; it is the path of nearly
        /// every request, walked in one loop. Nil when it runs into a dead end or a 405: `visit`
        /// then searches properly.
        mutating func straight(start first: Int) -> Int? {
            let count = path.count
            var index = 0
            var start = first
            while true {
                let node = nodes[index]
                if start > count {
                    let route = pickQuietly(node.endStart, node.endEnd)
                    if route >= 0 { return route }
                    return nil
                }
                var end = start
                while end < count && path[end] != UInt8(ascii: "/") { end += 1 }
                let length = end - start
                var next = literalChild(node, start: start, length: length)
                if next < 0 {
                    var e = node.parameterStart
                    while e < node.edgeEnd {
                        let edge = edges[e]
                        if takes(edge, start: start, length: length) {
                            bounds.append(start, start + length - edge.count)
                            next = edge.child
                            break
                        }
                        e += 1
                    }
                }
                if next < 0 {
                    guard node.restStart < node.restEnd else { return nil }
                    bounds.append(min(start, count), count)
                    let route = pickQuietly(node.restStart, node.restEnd)
                    return route >= 0 ? route : nil
                }
                index = next
                start = end + 1
            }
        }

        /// `pick` without noting methods for `Allow`: -1 leaves that to `visit`.
        @inline(__always)
        private func pickQuietly(_ from: Int, _ to: Int) -> Int {
            var i = from
            while i < to {
                if endpoints[i].method == method { return endpoints[i].route }
                i += 1
            }
            if method == .HEAD {
                i = from
                while i < to {
                    if endpoints[i].method == .GET { return endpoints[i].route }
                    i += 1
                }
            }
            return -1
        }

        /// The route found at or below node `index` for the path from `start` (past the end once
        /// every segment is used), or -1. Every cut is at '/' or before an ASCII suffix, so each
        /// parameter is whole UTF-8; a trailing slash leaves an empty segment that only `*name` takes.
        mutating func visit(_ index: Int, start: Int) -> Int {
            let node = nodes[index]
            let count = path.count
            if start > count {
                let route = pick(node.endStart, node.endEnd)
                if route >= 0 { return route }
            } else {
                var end = start
                while end < count && path[end] != UInt8(ascii: "/") { end += 1 }
                let length = end - start
                let literal = literalChild(node, start: start, length: length)
                if literal >= 0 {
                    let route = visit(literal, start: end + 1)
                    if route >= 0 { return route }
                }
                var e = node.parameterStart
                while e < node.edgeEnd {
                    let edge = edges[e]
                    if takes(edge, start: start, length: length) {
                        bounds.append(start, start + length - edge.count)
                        let route = visit(edge.child, start: end + 1)
                        if route >= 0 { return route }
                        bounds.removeLast()
                    }
                    e += 1
                }
            }
            if node.restStart < node.restEnd {
                bounds.append(min(start, count), count)
                let route = pick(node.restStart, node.restEnd)
                if route >= 0 { return route }
                bounds.removeLast()
            }
            return -1
        }

        /// The first of `endpoints[from..<to]` for the method (GET for HEAD), or -1 with their methods noted for `Allow`.
        private mutating func pick(_ from: Int, _ to: Int) -> Int {
            let route = pickQuietly(from, to)
            if route >= 0 { return route }
            for i in from..<to {
                let other = endpoints[i].method
                if !allowed.contains(other) { allowed.append(other) }
                if other == .GET && !allowed.contains(.HEAD) { allowed.append(.HEAD) }
            }
            return -1
        }

        /// The node behind the literal edge that is the segment of `length` bytes at `start`, or -1
        /// (one literal at most can be).
        @inline(__always)
        private func literalChild(_ node: Node, start: Int, length: Int) -> Int {
            var e = node.literalStart
            while e < node.parameterStart {
                let edge = edges[e]
                // By length: the rest are as long or longer.
                if edge.count > length { break }
                if edge.count == length && same(start, edge) { return edge.child }
                e += 1
            }
            return -1
        }

        /// Whether a parameter edge takes the segment: something, then the edge's suffix.
        @inline(__always)
        private func takes(_ edge: Edge, start: Int, length: Int) -> Bool {
            let kept = length - edge.count
            return kept > 0 && same(start + kept, edge)
        }

        /// Whether the path's bytes from `offset` are the edge's.
        @inline(__always)
        private func same(_ offset: Int, _ edge: Edge) -> Bool {
            // Most differ in the first byte; the rest is memcmp's, many bytes per step.
            guard edge.count > 0 else { return true }
            guard path[offset] == bytes[edge.start] else { return false }
            return Memory.equal(path.baseAddress! + offset, bytes.baseAddress! + edge.start, count: edge.count)
        }
    }
}
