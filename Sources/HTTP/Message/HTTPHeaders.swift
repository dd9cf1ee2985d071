/// Header fields in the order received or added; names compare case-insensitively.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    public init(_ fields: [(String, String)]) { self.fields = fields.map { (name: $0.0, value: $0.1) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    public mutating func remove(_ name: String) { fields.removeAll { $0.name.caseInsensitiveEquals(name) } }

    public var count: Int { fields.count }

    /// Room for `count` fields without regrowing, for a parser about to add them one by one.
    mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
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
