import Foundation
import POSIX

/// A random token: 32 bytes from the kernel (`getrandom`, `KernelRandom`), written as 43 characters of
/// base64url without padding, so it goes into a cookie or a URL path as it is.
public enum AccessToken {
    /// Bytes of randomness in a token: 256 bits, beyond any guessing.
    public static let bytes = 32
    /// Characters of a token as written.
    public static let length = 43

    /// A new token.
    public static func make() throws -> String {
        encode(try KernelRandom.bytes(bytes))
    }

    /// base64url without padding (RFC 4648 §5): Foundation's base64 with the URL alphabet's two
    /// characters put in and the padding left off.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// Whether `bytes` could be a token: exactly `length` base64url characters. Checked
    /// before anything is looked up, so a hostile value never reaches a cache or the database.
    @inlinable
    public static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == length else { return false }
        for byte in bytes {
            let ok = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if !ok { return false }
        }
        return true
    }

    /// `isWellFormed` for a string.
    public static func isWellFormed(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isWellFormed($0) }
    }
}
