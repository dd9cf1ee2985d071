/// The `Upload-Metadata` field of a tus creation: comma-separated pairs of a key and an
/// optional base64 value (`filename d29ybGRfZG9taW5hdGlvbl9wbGFuLnBkZg==,is_confidential`).
public struct UploadMetadata: Sendable, Equatable {
    /// Keys and their decoded values, in the order sent; a key without a value has empty bytes.
    public private(set) var pairs: [(key: String, value: [UInt8])]

    public static func == (a: UploadMetadata, b: UploadMetadata) -> Bool {
        a.pairs.map(\.key) == b.pairs.map(\.key) && a.pairs.map(\.value) == b.pairs.map(\.value)
    }

    public init() { pairs = [] }

    /// Most pairs, and longest field, accepted; more is a client mistake, not a photo.
    public static let maxPairs = 32
    public static let maxFieldBytes = 4096

    /// Why the field was refused, in words for the client.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses a field value. Keys must be non-empty, unique, and free of spaces and commas;
    /// values strict base64.
    public static func parse(_ value: String) throws(Problem) -> UploadMetadata {
        var metadata = UploadMetadata()
        guard value.utf8.count <= maxFieldBytes else { throw Problem(description: "Upload-Metadata is longer than \(maxFieldBytes) bytes.") }
        if value.allSatisfy({ $0 == " " }) { return metadata }
        var keys: Set<String> = []
        for pair in value.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: " ", omittingEmptySubsequences: true)
            guard (1...2).contains(parts.count), let key = parts.first,
                  key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: ",") }) else {
                throw Problem(description: "Upload-Metadata must be comma-separated pairs of a key and a base64 value.")
            }
            guard keys.insert(String(key)).inserted else { throw Problem(description: "Upload-Metadata names the key \(key) twice.") }
            var bytes: [UInt8] = []
            if parts.count == 2 {
                guard let decoded = Base64.decode(parts[1]) else {
                    throw Problem(description: "The value of \(key) in Upload-Metadata is not base64.")
                }
                bytes = decoded
            }
            metadata.pairs.append((String(key), bytes))
            guard metadata.pairs.count <= maxPairs else { throw Problem(description: "Upload-Metadata has more than \(maxPairs) keys.") }
        }
        return metadata
    }

    /// The value of `key` as UTF-8 text, or nil when absent or not UTF-8.
    public func text(_ key: String) -> String? {
        guard let bytes = pairs.first(where: { $0.key == key })?.value else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The name the client gave its file: `filename`, or `name` (Uppy sends both).
    public var fileName: String? { text("filename") ?? text("name") }
}
