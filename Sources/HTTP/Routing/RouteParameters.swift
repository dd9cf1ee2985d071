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

        /// Forgets the last value, when the matcher backs out of a branch.
        @inline(__always)
        mutating func removeLast() {
            count -= 1
            if count >= Self.inlineCount { more.removeLast(2) }
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
        guard let found = self.position(of: name, hint: position) else { return nil }
        return try withBytes(at: found, body)
    }

    /// The value captured as `name` (looked for at `position` first, as `withUTF8(_:at:_:)`
    /// does) as a plain decimal number: 1 to 18 digits, no sign, no leading zero, so it cannot
    /// overflow. Nil when there is no such parameter or it is not such a number. Read straight
    /// from the path's bytes, in one loop: every hot tile reads four of these.
    @inlinable
    public func decimal(_ name: String, at position: Int) -> Int? {
        guard let found = self.position(of: name, hint: position) else { return nil }
        return withBytes(at: found) { RouteParameters.decimal($0) }
    }

    /// `digits` as a number, or nil unless they are 1 to 18 decimal digits without a leading zero.
    @inlinable
    public static func decimal(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = digits.count
        guard count > 0, count <= 18, let base = digits.baseAddress, count == 1 || base[0] != UInt8(ascii: "0") else { return nil }
        var n = 0
        var i = 0
        while i < count {
            let digit = base[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            n = n &* 10 &+ Int(digit)
            i += 1
        }
        return n
    }

    /// Where `name` is, looked for at `hint` first (a wrong hint only costs the search).
    @inlinable
    func position(of name: String, hint: Int) -> Int? {
        if hint >= 0, hint < min(names.count, bounds.count), names[hint] == name { return hint }
        return position(of: name)
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
