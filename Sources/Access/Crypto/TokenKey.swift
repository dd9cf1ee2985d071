/// A session or link token as the 32 bytes it encodes: hashed and compared as four words, so
/// finding it in memory builds no string. Made straight from a cookie's or a path's bytes.
package struct TokenKey: Hashable, Sendable {
    let a: UInt64, b: UInt64, c: UInt64, d: UInt64

    /// The key of a 43-character base64url token, or nil for anything else (the last character
    /// must leave its two spare bits zero, as in every token made here).
    @inline(__always)
    package init?(_ text: UnsafeBufferPointer<UInt8>) {
        guard text.count == AccessToken.length else { return nil }
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let decoded = withUnsafeMutableBytes(of: &bytes) { raw in
            Base64URL.decode(text, into: raw.bindMemory(to: UInt8.self))
        }
        guard decoded == AccessToken.bytes else { return nil }
        (a, b, c, d) = (UInt64(bigEndian: bytes.0), UInt64(bigEndian: bytes.1), UInt64(bigEndian: bytes.2), UInt64(bigEndian: bytes.3))
    }

    /// The key of a token given as a string.
    package init?(_ text: String) {
        var text = text
        guard let key = text.withUTF8({ TokenKey($0) }) else { return nil }
        self = key
    }

    /// The token as written (base64url, 43 characters), for the database's lookups.
    package var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(AccessToken.bytes)
        for word in [a, b, c, d] {
            withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) }
        }
        return Base64URL.encode(bytes)
    }
}
