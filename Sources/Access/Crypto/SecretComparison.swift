/// Comparisons of secrets (the admin and metrics tokens) whose time says nothing about the guess.
package enum SecretComparison {
    /// Whether `presented` equals `expected`, in a time that depends on neither's content nor
    /// length: both are hashed (BLAKE2b, 32 bytes) and the digests compared in constant time.
    package static func equals(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        Sodium.equalInConstantTime(Sodium.blake2b(presented, key: []), Sodium.blake2b(expected, key: []))
    }
}
