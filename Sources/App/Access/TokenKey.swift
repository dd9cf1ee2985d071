import Access

/// A session or link token as the 32 bytes it encodes: hashed and compared as four words, so
/// finding it in memory builds no string. Made straight from a cookie's or a path's bytes.
struct TokenKey: Hashable, Sendable {
    let a: UInt64, b: UInt64, c: UInt64, d: UInt64

    /// The key of a 43-character base64url token, or nil for anything else.
    @inline(__always)
    init?(_ text: UnsafeBufferPointer<UInt8>) {
        guard text.count == AccessToken.length else { return nil }
        var words = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var bits: UInt64 = 0, count = 0, word = 0, filled = 0
        for byte in text {
            guard let value = Self.value(byte) else { return nil }
            bits = bits << 6 | UInt64(value)
            count += 6
            while count >= 8 && word < 4 {
                count -= 8
                let next = (bits >> UInt64(count)) & 0xff
                switch word {
                case 0: words.0 = words.0 << 8 | next
                case 1: words.1 = words.1 << 8 | next
                case 2: words.2 = words.2 << 8 | next
                default: words.3 = words.3 << 8 | next
                }
                filled += 1
                if filled == 8 { filled = 0; word += 1 }
            }
            bits &= (1 << UInt64(count)) - 1
        }
        // 43 characters carry 258 bits: the last two must be zero in a token we made.
        guard word == 4, bits == 0 else { return nil }
        (a, b, c, d) = words
    }

    /// The key of a token given as a string.
    init?(_ text: String) {
        var text = text
        guard let key = text.withUTF8({ TokenKey($0) }) else { return nil }
        self = key
    }

    @inline(__always)
    private static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

extension TokenKey {
    /// The token as written (base64url, 43 characters), for the database's lookups.
    var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [a, b, c, d] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return AccessToken.encode(bytes)
    }
}
