// The only Swift file that sees libsodium (Debian's libsodium-dev): each call it makes for access,
// with the library started first and its failures turned into Swift values here.
private import CSodium

/// libsodium's Argon2id, keyed BLAKE2b, constant-time comparison and base64url, as access uses them.
enum Sodium {
    /// Started once per process; `sodium_init` is safe to call again and from any thread.
    private static let started: Bool = sodium_init() >= 0

    private static func start() {
        precondition(started, "libsodium could not be started")
    }

    /// Argon2id of `password` under a random salt from libsodium, as a PHC string
    /// (`$argon2id$v=19$m=…,t=…,p=1$<salt>$<hash>`); nil when the memory could not be had.
    static func argon2idString(_ password: [UInt8], passes: UInt64, memoryBytes: Int) -> String? {
        start()
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_argon2id_STRBYTES))
        let code = cString(password).withUnsafeBufferPointer {
            crypto_pwhash_argon2id_str(&out, $0.baseAddress!, UInt64(password.count), passes, memoryBytes)
        }
        guard code == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one the Argon2id PHC string `encoded` was made from, whoever
    /// made it: libsodium reads the standard encoding (libargon2's, any number of lanes) and
    /// compares the hashes in constant time.
    static func verifyArgon2id(_ password: [UInt8], against encoded: String) -> Bool {
        start()
        return encoded.withCString { encoded in
            cString(password).withUnsafeBufferPointer {
                crypto_pwhash_argon2id_str_verify(encoded, $0.baseAddress!, UInt64(password.count)) == 0
            }
        }
    }

    /// `bytes` as C characters, never empty (a valid pointer even for no bytes: the length passed
    /// beside it says how many are read).
    private static func cString(_ bytes: [UInt8]) -> [CChar] {
        bytes.map { CChar(bitPattern: $0) } + [0]
    }

    /// Bytes of a BLAKE2b digest and of its key here.
    static let digestBytes = 32

    /// BLAKE2b of `input`, 32 bytes, keyed by `key` (32 bytes) or unkeyed when it is empty.
    static func blake2b(_ input: [UInt8], key: [UInt8]) -> [UInt8] {
        start()
        precondition(key.isEmpty || key.count == digestBytes, "a BLAKE2b key here is 32 bytes")
        var out = [UInt8](repeating: 0, count: digestBytes)
        // An empty input still needs a valid pointer; its length says none of it is read.
        let bytes = input.isEmpty ? [0] : input
        _ = out.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { bytes in
                key.withUnsafeBufferPointer { key in
                    crypto_generichash(out.baseAddress!, out.count, bytes.baseAddress!, UInt64(input.count), key.baseAddress, key.count)
                }
            }
        }
        return out
    }

    /// Whether two buffers of the same length are equal, in a time that depends on their
    /// length alone (`sodium_memcmp`).
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        start()
        precondition(a.count == b.count)
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in sodium_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }

    /// `bytes` in base64url without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        start()
        let variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        var out = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        _ = bytes.withUnsafeBufferPointer { sodium_bin2base64(&out, out.count, $0.baseAddress, $0.count, variant) }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Decodes base64url without padding into `out`; the bytes written, or nil for text that is
    /// not exactly that (a character outside the alphabet, padding, leftover bits not zero, or
    /// more bytes than `out` holds).
    static func decodeBase64URL(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        start()
        var written = 0
        var end: UnsafePointer<CChar>?
        let code = text.withMemoryRebound(to: CChar.self) { text in
            sodium_base642bin(out.baseAddress!, out.count, text.baseAddress, text.count, nil, &written, &end,
                              Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING))
        }
        guard code == 0, let end, end == text.withMemoryRebound(to: CChar.self, { $0.baseAddress! + $0.count }) else { return nil }
        return written
    }
}
