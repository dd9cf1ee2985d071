import Foundation

/// Standard base64 (RFC 4648 §4, with padding), as tus uses for metadata values and checksums.
enum Base64 {
    /// The bytes of `text`, or nil when it is not strict base64 (wrong length, characters or padding).
    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count % 4 == 0 else { return nil }
        guard let data = Data(base64Encoded: String(text)) else { return nil }
        return [UInt8](data)
    }
}
