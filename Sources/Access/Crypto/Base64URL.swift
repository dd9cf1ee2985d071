/// base64url without padding (RFC 4648 §5), the one spelling of tokens in cookies and paths:
/// libsodium's coder, so no alphabet is written out by hand anywhere.
package enum Base64URL {
    /// `bytes` as base64url, without padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        Sodium.base64URL(bytes)
    }

    /// Decodes `text` into `out`: the bytes written, or nil when `text` is not exactly base64url
    /// without padding (another character, `=`, leftover bits that are not zero) or decodes to
    /// more than `out` holds. Allocates nothing.
    @inline(__always)
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard !text.isEmpty else { return 0 }
        return Sodium.decodeBase64URL(text, into: out)
    }
}
