/// One setting of `Configuration`, declared once: the property's name is the key, its initial
/// value the default, its type the type, and the line given here its documentation (the
/// README's "meaning" cell, checked by a test). The environment variable and the flag are
/// derived from the name (`tileCacheMegabytes`: `PHOTOSCROLL_TILE_CACHE_MEGABYTES`,
/// `--tile-cache-megabytes`).
///
///     @Setting("TCP port; `0` picks a free one, printed on the first line", in: 0...65535)
///     public var port = 8080
@propertyWrapper
public struct Setting<Value: SettingValue>: Sendable, Equatable {
    public var wrappedValue: Value
    /// One line for the README's table (Markdown).
    public let doc: String
    /// The values allowed, when a range or a list says it all (other checks live in
    /// `Configuration.validate()`): whether a value is one, and the message naming the key when not.
    let accepts: @Sendable (Value) -> Bool
    let message: @Sendable (_ name: String, Value) -> String

    public init(wrappedValue: Value, _ doc: String) {
        self.init(wrappedValue: wrappedValue, doc: doc, accepts: { _ in true }, message: { name, _ in name })
    }

    /// A setting whose value must lie in `range`.
    public init(wrappedValue: Value, _ doc: String, in range: ClosedRange<Value>) where Value: Comparable {
        self.init(wrappedValue: wrappedValue, doc: doc, accepts: { range.contains($0) }, message: { name, value in
            "\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)."
        })
    }

    /// A setting whose value must be one of `choices`.
    public init(wrappedValue: Value, _ doc: String, oneOf choices: [Value]) {
        self.init(wrappedValue: wrappedValue, doc: doc, accepts: { choices.contains($0) }, message: { name, value in
            let named = choices.map { "\"\($0)\"" }
            return "\(name) must be \(named.dropLast().joined(separator: ", ")) or \(named.last ?? ""), not \"\(value)\"."
        })
    }

    private init(wrappedValue: Value, doc: String, accepts: @escaping @Sendable (Value) -> Bool,
                 message: @escaping @Sendable (String, Value) -> String) {
        self.wrappedValue = wrappedValue
        self.doc = doc
        self.accepts = accepts
        self.message = message
    }

    /// Settings compare by value; their documentation is the same for every instance.
    public static func == (lhs: Setting, rhs: Setting) -> Bool { lhs.wrappedValue == rhs.wrappedValue }
}

extension String: SettingValue { public static var kind: SettingKind { .string } }
extension Int: SettingValue { public static var kind: SettingKind { .int } }
extension Double: SettingValue { public static var kind: SettingKind { .double } }
extension Bool: SettingValue { public static var kind: SettingKind { .bool } }

extension Setting: Codable {
    /// Only the value is read and written; the documentation stays with the declaration.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self), "")
        // The rules stay with the declaration too: `Configuration.validate()` reads them there.
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Setting: AnySetting {
    var value: any SettingValue { wrappedValue }
    var kind: SettingKind { Value.kind }

    func refusal(_ value: any SettingValue, name: String) -> String? {
        guard let value = value as? Value else { return "\(name) has the wrong type." }
        return accepts(value) ? nil : message(name, value)
    }
}
