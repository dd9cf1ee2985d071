import POSIX

/// A random token: 32 bytes from the kernel (`getrandom`, `KernelRandom`), written as 43 characters of
/// base64url without padding (`Base64URL`), so it goes into a cookie or a URL path as it is.
public enum AccessToken {
    /// Bytes of randomness in a token: 256 bits, beyond any guessing.
    public static let bytes = 32
    /// Characters of a token as written.
    public static let length = 43

    /// A new token.
    public static func make() throws -> String {
        Base64URL.encode(try KernelRandom.bytes(bytes))
    }

    /// Whether `text` could be a token: exactly `length` characters that decode to `bytes` bytes.
    /// Checked before anything is looked up, so a hostile value never reaches a cache or the database.
    public static func isWellFormed(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        TokenKey(text) != nil
    }

    /// `isWellFormed` for a string.
    public static func isWellFormed(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isWellFormed($0) }
    }
}
