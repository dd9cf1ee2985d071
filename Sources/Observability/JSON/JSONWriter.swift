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
