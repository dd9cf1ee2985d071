/// The server's one way to turn a value into JSON: any `Encodable` value, written as UTF-8 bytes.
///
/// - Members come in the order the value encodes them, which for a synthesized conformance is
///   the order the properties are declared: the type's declaration is the documented shape.
/// - An optional property that is nil is left out (`encodeIfPresent`, as synthesized code
///   does); `Nullable` writes an explicit `null`.
/// - Strings are escaped by the one rule, `JSONEscaping` (U+2028 and U+2029 included).
/// - Whole numbers are digits; a `Double` is the shortest text that reads back as the same
///   number, without `.0` when it is whole (`1.8`, `0.000125`, `2`); NaN and infinity are errors.
/// - A `JSONFragment` (JSON written and checked earlier, such as a photo's stored details) is
///   copied in as it is.
/// - No whitespace between tokens. A dictionary's members come in the dictionary's order, which
///   is not stable: answers use structs.
public enum JSONWriter {
    /// The value as JSON bytes.
    public static func bytes<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let sink = JSONSink()
        try sink.encode(value, depth: 0, path: [])
        return sink.bytes
    }

    /// The value as JSON text.
    public static func string<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try bytes(value), as: UTF8.self)
    }
}

/// An explicit `null` when there is no value (an optional property is left out instead).
public struct Nullable<Wrapped: Encodable>: Encodable, ExpressibleByNilLiteral {
    public var value: Wrapped?

    public init(_ value: Wrapped?) { self.value = value }
    public init(nilLiteral: ()) { value = nil }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

extension Nullable: Sendable where Wrapped: Sendable {}
extension Nullable: Equatable where Wrapped: Equatable {}

/// JSON text written earlier and known to be one valid JSON value, copied into an answer as it
/// is (a photo's details are written once at ingest, so a page of records is a copy, not a parse).
/// Only `JSONWriter` writes it; another encoder throws.
public struct JSONFragment: Encodable, Sendable, Equatable {
    public let text: String

    /// `text` must be one JSON value written by `JSONWriter` (or escaped by `JSONEscaping`).
    public init(trusted text: String) { self.text = text }

    public func encode(to encoder: any Encoder) throws {
        guard let encoder = encoder as? JSONValueEncoder else {
            throw EncodingError.invalidValue(text, EncodingError.Context(codingPath: encoder.codingPath,
                                                                         debugDescription: "A JSONFragment is only written by JSONWriter."))
        }
        encoder.sink.raw(text)
    }
}

// MARK: - The writer

/// The bytes written so far and the containers still open. Values are written as they are
/// encoded, never built as a tree first; a container is closed when its parent writes again
/// or when the value that opened it is done.
final class JSONSink {
    var bytes: [UInt8] = []
    /// Open containers, innermost last: whether each is an object, and whether it has a member yet.
    private var open: [(object: Bool, empty: Bool)] = []

    init() { bytes.reserveCapacity(256) }

    var depth: Int { open.count }

    /// Closes every container deeper than `depth`.
    @inline(__always)
    func close(downTo depth: Int) {
        while open.count > depth { bytes.append(open.removeLast().object ? 0x7d : 0x5d) }
    }

    /// Opens an object or array as the value being written; its containers sit at the new depth.
    func openContainer(object: Bool) {
        bytes.append(object ? 0x7b : 0x5b)
        open.append((object, true))
    }

    /// Starts the next member or element of the container at `depth` (1-based): closes anything
    /// deeper, then the comma.
    @inline(__always)
    func next(in depth: Int) {
        close(downTo: depth)
        if open[depth - 1].empty { open[depth - 1].empty = false } else { bytes.append(0x2c) }
    }

    /// `"key":` as the next member of the object at `depth`.
    func key(_ name: String, in depth: Int) {
        next(in: depth)
        string(name)
        bytes.append(0x3a)
    }

    func raw(_ text: String) {
        JSONEscaping.withUTF8(text) { bytes.append(contentsOf: $0) }
    }

    func string(_ text: String) {
        bytes.append(0x22)
        JSONEscaping.append(text, to: &bytes)
        bytes.append(0x22)
    }

    func null() { bytes.append(contentsOf: [0x6e, 0x75, 0x6c, 0x6c]) }

    func bool(_ value: Bool) {
        if value { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { bytes.append(contentsOf: [0x66, 0x61, 0x6c, 0x73, 0x65]) }
    }

    func integer<Number: BinaryInteger>(_ value: Number) {
        if value < 0 {
            bytes.append(0x2d)
            unsigned(UInt64(value.magnitude))
        } else {
            unsigned(UInt64(value))
        }
    }

    private func unsigned(_ value: UInt64) {
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20 && value >= scale {
            digits += 1
            if scale > UInt64.max / 10 { break }
            scale *= 10
        }
        var at = bytes.count + digits
        bytes.append(contentsOf: repeatElement(0x30, count: digits))
        var rest = value
        repeat {
            at -= 1
            bytes[at] = 0x30 + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
    }

    func double(_ value: Double, path: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "JSON has no \(value)."))
        }
        if value == value.rounded(), abs(value) < 1e15 { integer(Int64(value)) } else { raw(value.description) }
    }

    func float(_ value: Float, path: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "JSON has no \(value)."))
        }
        if value == value.rounded(), abs(value) < 1e7 { integer(Int64(value)) } else { raw(value.description) }
    }

    /// Writes `value` as the value at this point; `depth` is how many containers are open
    /// around it. Whatever it opens is closed when it is done.
    func encode<Value: Encodable>(_ value: Value, depth: Int, path: [any CodingKey]) throws {
        // The common leaves without an encoder of their own.
        if Value.self == String.self { return string(value as! String) }
        if Value.self == Int.self { return integer(value as! Int) }
        if Value.self == JSONFragment.self { return raw((value as! JSONFragment).text) }
        let start = bytes.count
        try value.encode(to: JSONValueEncoder(sink: self, depth: depth, codingPath: path))
        close(downTo: depth)
        // A value that asked for no container at all is an empty object, as Foundation writes it.
        if bytes.count == start { bytes.append(contentsOf: [0x7b, 0x7d]) }
    }
}

/// The `Encoder` handed to each value that encodes itself.
final class JSONValueEncoder: Encoder {
    let sink: JSONSink
    /// Containers open around this value.
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The container this value opened, so asking twice (a subclass and its superclass) writes
    /// into the same one.
    private var opened: (object: Bool, depth: Int)?

    init(sink: JSONSink, depth: Int, codingPath: [any CodingKey]) {
        self.sink = sink
        self.depth = depth
        self.codingPath = codingPath
    }

    private func openContainer(object: Bool) -> Int {
        if let opened, opened.object == object, sink.depth >= opened.depth {
            sink.close(downTo: opened.depth)
            return opened.depth
        }
        sink.close(downTo: depth)
        sink.openContainer(object: object)
        opened = (object, depth + 1)
        return depth + 1
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONObjectContainer<Key>(sink: sink, depth: openContainer(object: true), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONArrayContainer(sink: sink, depth: openContainer(object: false), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(sink: sink, depth: depth, codingPath: codingPath)
    }
}

struct JSONObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: JSONSink
    /// This object's place in the sink's open containers (1-based).
    let depth: Int
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.null() }
    func encode(_ value: Bool, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.bool(value) }
    func encode(_ value: String, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.string(value) }
    func encode(_ value: Double, forKey key: Key) throws {
        sink.key(key.stringValue, in: depth)
        try sink.double(value, path: codingPath + [key])
    }
    func encode(_ value: Float, forKey key: Key) throws {
        sink.key(key.stringValue, in: depth)
        try sink.float(value, path: codingPath + [key])
    }
    func encode(_ value: Int, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: Int8, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: Int16, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: Int32, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: Int64, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt8, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt16, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt32, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt64, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }

    func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        sink.key(key.stringValue, in: depth)
        try sink.encode(value, depth: depth, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        sink.key(key.stringValue, in: depth)
        sink.openContainer(object: true)
        return KeyedEncodingContainer(JSONObjectContainer<NestedKey>(sink: sink, depth: depth + 1, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        sink.key(key.stringValue, in: depth)
        sink.openContainer(object: false)
        return JSONArrayContainer(sink: sink, depth: depth + 1, codingPath: codingPath + [key])
    }

    func superEncoder() -> any Encoder { superEncoder(named: "super") }
    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        sink.key(name, in: depth)
        // Until the superclass writes, the member's value is null, so the text stays JSON.
        sink.null()
        return JSONDeferredEncoder(sink: sink, depth: depth, placeholder: sink.bytes.count - 4, codingPath: codingPath)
    }
}

/// A `superEncoder`'s: the first container asked of it replaces the `null` placeholder, which
/// must still be the last thing written.
final class JSONDeferredEncoder: Encoder {
    let sink: JSONSink
    let depth: Int
    let placeholder: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private lazy var inner: JSONValueEncoder = {
        sink.close(downTo: depth)
        if sink.bytes.count == placeholder + 4 { sink.bytes.removeLast(4) }
        return JSONValueEncoder(sink: sink, depth: depth, codingPath: codingPath)
    }()

    init(sink: JSONSink, depth: Int, placeholder: Int, codingPath: [any CodingKey]) {
        self.sink = sink
        self.depth = depth
        self.placeholder = placeholder
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { inner.container(keyedBy: type) }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { inner.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { inner.singleValueContainer() }
}

struct JSONArrayContainer: UnkeyedEncodingContainer {
    let sink: JSONSink
    let depth: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(sink: JSONSink, depth: Int, codingPath: [any CodingKey]) {
        self.sink = sink
        self.depth = depth
        self.codingPath = codingPath
    }

    private mutating func next() {
        sink.next(in: depth)
        count += 1
    }

    mutating func encodeNil() throws { next(); sink.null() }
    mutating func encode(_ value: Bool) throws { next(); sink.bool(value) }
    mutating func encode(_ value: String) throws { next(); sink.string(value) }
    mutating func encode(_ value: Double) throws { next(); try sink.double(value, path: codingPath) }
    mutating func encode(_ value: Float) throws { next(); try sink.float(value, path: codingPath) }
    mutating func encode(_ value: Int) throws { next(); sink.integer(value) }
    mutating func encode(_ value: Int8) throws { next(); sink.integer(value) }
    mutating func encode(_ value: Int16) throws { next(); sink.integer(value) }
    mutating func encode(_ value: Int32) throws { next(); sink.integer(value) }
    mutating func encode(_ value: Int64) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt8) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt16) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt32) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt64) throws { next(); sink.integer(value) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        next()
        try sink.encode(value, depth: depth, path: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next()
        sink.openContainer(object: true)
        return KeyedEncodingContainer(JSONObjectContainer<NestedKey>(sink: sink, depth: depth + 1, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next()
        sink.openContainer(object: false)
        return JSONArrayContainer(sink: sink, depth: depth + 1, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        next()
        sink.null()
        return JSONDeferredEncoder(sink: sink, depth: depth, placeholder: sink.bytes.count - 4, codingPath: codingPath)
    }
}

struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let sink: JSONSink
    let depth: Int
    let codingPath: [any CodingKey]

    private func begin() { sink.close(downTo: depth) }

    func encodeNil() throws { begin(); sink.null() }
    func encode(_ value: Bool) throws { begin(); sink.bool(value) }
    func encode(_ value: String) throws { begin(); sink.string(value) }
    func encode(_ value: Double) throws { begin(); try sink.double(value, path: codingPath) }
    func encode(_ value: Float) throws { begin(); try sink.float(value, path: codingPath) }
    func encode(_ value: Int) throws { begin(); sink.integer(value) }
    func encode(_ value: Int8) throws { begin(); sink.integer(value) }
    func encode(_ value: Int16) throws { begin(); sink.integer(value) }
    func encode(_ value: Int32) throws { begin(); sink.integer(value) }
    func encode(_ value: Int64) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt8) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt16) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt32) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt64) throws { begin(); sink.integer(value) }

    func encode<Value: Encodable>(_ value: Value) throws {
        begin()
        try sink.encode(value, depth: depth, path: codingPath)
    }
}
