// The only Swift file that sees libsodium: secrets are compared here, by its constant-time code.
internal import CSodium

/// Comparisons of secrets (tokens, passwords' hashes) whose time says nothing about the guess.
enum SecretComparison {
    /// libsodium is started once per process; `sodium_init` is safe to call again and from any thread.
    private static let started: Bool = sodium_init() >= 0

    /// Whether `presented` equals `expected`, in a time that depends on neither's content nor
    /// length: both are hashed (BLAKE2b, 32 bytes) and the digests compared by `sodium_memcmp`.
    static func equals(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        precondition(started, "libsodium could not be started")
        let a = digest(presented), b = digest(expected)
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in sodium_memcmp(x.baseAddress, y.baseAddress, 32) == 0 } }
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        // An empty input still needs a valid pointer; its length says none of it is read.
        let input = bytes.isEmpty ? [0] : bytes
        _ = out.withUnsafeMutableBufferPointer { o in
            input.withUnsafeBufferPointer { i in
                crypto_generichash(o.baseAddress!, 32, i.baseAddress!, UInt64(bytes.count), nil, 0)
            }
        }
        return out
    }
}
