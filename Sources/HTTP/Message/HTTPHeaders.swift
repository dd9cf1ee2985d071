/// Header fields in the order received or added; names compare case-insensitively.
///
/// The values of a parsed request are kept as the bytes they came in until they are asked for:
/// a browser sends a dozen fields and a route reads one or two, so spelling each out as a
/// `String` at once (checked as UTF-8, and allocated when longer than 15 bytes) was most of
/// the cost of reading a head. The field lines are copied once, into one array, and a value is
/// decoded each time it is read.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Key = String
    public typealias Value = String

    /// A field's value: spelled out, or still the bytes `start..<start + count` of `lines`.
    enum FieldValue: Sendable {
        case text(String)
        case bytes(start: UInt32, count: UInt32)
    }

    struct Field: Sendable {
        var name: String
        var value: FieldValue
    }

    private var entries: [Field] = []
    /// The field lines of the head that `FieldValue.bytes` values point into; nil when none do
    /// (nil rather than empty: copying the headers then retains one array, not two).
    private var lines: [UInt8]?

    public init() {}
    public init(_ fields: [(String, String)]) { self.entries = fields.map { Field(name: $0.0, value: .text($0.1)) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// Every field, values spelled out.
    public var fields: [(name: String, value: String)] { entries.map { (name: $0.name, value: text(of: $0.value)) } }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        entries.first { $0.name.caseInsensitiveEquals(name) }.map { text(of: $0.value) }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        entries.filter { $0.name.caseInsensitiveEquals(name) }.map { text(of: $0.value) }
    }

    public func contains(_ name: String) -> Bool { entries.contains { $0.name.caseInsensitiveEquals(name) } }
    /// Whether a field's name starts with `prefix` (ASCII, any case): `X-Forwarded-` finds every one of that family.
    public func containsName(prefixed prefix: String) -> Bool {
        let prefix = prefix.lowercased()
        return entries.contains { $0.name.utf8.count >= prefix.utf8.count && $0.name.lowercased().hasPrefix(prefix) }
    }

    /// Calls `body` with the UTF-8 bytes of each value of `name` in turn, without spelling any
    /// of them out as a string, until it returns non-nil; that result, or nil. For values read
    /// on a hot path (a session cookie on every tile).
    public func firstValue<Result>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result?) -> Result? {
        for entry in entries where entry.name.caseInsensitiveEquals(name) {
            let found: Result?
            switch entry.value {
            case .text(var text):
                found = text.withUTF8 { body($0) }
            case .bytes(let start, let count):
                found = lines!.withUnsafeBufferPointer { lines in body(UnsafeBufferPointer(rebasing: lines[Int(start)..<Int(start + count)])) }
            }
            if let found { return found }
        }
        return nil
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) { entries.append(Field(name: name, value: .text(value))) }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) { entries.removeAll { $0.name.caseInsensitiveEquals(name) } }

    public var count: Int { entries.count }

    /// Positions of the fields, for reading names without spelling out every value.
    var indices: Range<Int> { entries.indices }

    /// The name of the field at `index`.
    func name(at index: Int) -> String { entries[index].name }

    /// The value of the field at `index`, spelled out.
    func value(at index: Int) -> String { text(of: entries[index].value) }

    /// The names, in order, without spelling out any value.
    var names: LazyMapSequence<[Field], String> { entries.lazy.map(\.name) }

    /// Room for `count` fields without regrowing, for a parser about to add them one by one.
    mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

    /// For the parser: a field whose value is bytes `start..<start + count` of the field lines
    /// that `keep(lines:)` hands over once the head is complete.
    mutating func add(_ name: String, valueAt start: Int, count: Int) {
        entries.append(Field(name: name, value: .bytes(start: UInt32(start), count: UInt32(count))))
    }

    /// For the parser: the field lines the values added with `add(_:valueAt:count:)` are in.
    mutating func keep(lines: [UInt8]) { self.lines = lines }

    private func text(of value: FieldValue) -> String {
        switch value {
        case .text(let text): return text
        case .bytes(let start, let count):
            return lines!.withUnsafeBufferPointer { lines in
                String(decoding: UnsafeBufferPointer(rebasing: lines[Int(start)..<Int(start + count)]), as: UTF8.self)
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(headers: self) }

    /// The fields in order, each value spelled out as it is reached.
    public struct Iterator: IteratorProtocol {
        let headers: HTTPHeaders
        var index = 0

        public mutating func next() -> (name: String, value: String)? {
            guard index < headers.entries.count else { return nil }
            defer { index += 1 }
            let field = headers.entries[index]
            return (name: field.name, value: headers.text(of: field.value))
        }
    }
}

extension String {
    /// ASCII case-insensitive equality, as header names and tokens are compared.
    @inlinable
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Names are mostly spelled as the code spells them: exact equality is one comparison of
        // two words for the short (inline) strings header names are.
        if self == other { return true }
        // Most same-length names differ in their first letter (Accept-Ranges, Cache-Control,
        // Last-Modified): reject those before spelling both out byte by byte.
        guard let x = utf8.first, let y = other.utf8.first, x | 0x20 == y | 0x20 else { return false }
        var a = self, b = other
        // Native strings are contiguous UTF-8: compare the bytes directly.
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for i in 0..<x.count where x[i] != y[i] {
                    let lx = x[i] >= 65 && x[i] <= 90 ? x[i] | 0x20 : x[i]
                    let ly = y[i] >= 65 && y[i] <= 90 ? y[i] | 0x20 : y[i]
                    if lx != ly { return false }
                }
                return true
            }
        }
    }
}
