/// What the database keeps of a random token (a session id, a setup link's token): keyed BLAKE2b
/// (libsodium's `crypto_generichash`) under the server's key, 32 bytes as 64 hex digits.
///
/// A 256-bit random token needs no slow hash, only a one-way function, so a copy of the table
/// opens nothing; the key adds that nobody without it can compute a token's digest, so the time
/// an index lookup takes teaches nothing about any stored one. One key per database
/// (`AccessStore` keeps it there), so every replica computes the same digests.
struct TokenDigest: Sendable {
    /// How a row's digest was made (its `digest_scheme` column).
    enum Scheme: String, Sendable {
        /// Before access schema step 7: `LegacyTokenDigest`, read and rewritten on first use.
        case argon2id
        /// `TokenDigest`, keyed BLAKE2b.
        case keyedBLAKE2b = "blake2b-keyed"
    }

    /// Bytes of the key.
    static let keyBytes = Sodium.digestBytes

    private let key: [UInt8]

    init(key: [UInt8]) {
        precondition(key.count == Self.keyBytes, "a token digest key is \(Self.keyBytes) bytes")
        self.key = key
    }

    /// The digest of `token`.
    func callAsFunction(_ token: String) -> String {
        Self.hex(Sodium.blake2b(Array(token.utf8), key: key))
    }

    /// `bytes` as lowercase hex digits.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of lowercase or uppercase hex digits; nil for anything else.
    static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for pair in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[pair]), let low = value(digits[pair + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
