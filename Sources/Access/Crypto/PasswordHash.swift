/// Passwords hashed with Argon2id (RFC 9106) by libsodium, into the PHC string format
/// (`$argon2id$v=19$m=65536,t=3,p=1$<salt>$<hash>`), which carries its own parameters, so a hash
/// made under others still verifies: the four-lane hashes libargon2 made before verify as they are.
public enum PasswordHash {
    /// The cost of one hash: passes over memory, and the memory. libsodium computes one lane.
    public struct Parameters: Sendable, Equatable {
        public var passes: UInt32
        public var memoryKiB: UInt32

        public init(passes: UInt32, memoryKiB: UInt32) {
            self.passes = passes
            self.memoryKiB = memoryKiB
        }

        /// RFC 9106 §4's second recommended option (for memory that cannot spare 2 GiB), 3 passes
        /// over 64 MiB, in the one lane libsodium computes: about a quarter of a second on one core.
        public static let passwords = Parameters(passes: 3, memoryKiB: 64 * 1024)
    }

    /// The longest password hashed; longer ones are refused before any work is done.
    package static let maxPasswordBytes = 1024

    /// Argon2id of `password` under a fresh random salt (16 bytes), as a PHC string.
    package static func make(_ password: String, parameters: Parameters = .passwords) throws -> String {
        let bytes = Array(password.utf8)
        guard bytes.count <= maxPasswordBytes else { throw PasswordHashError("the password is longer than \(maxPasswordBytes) bytes") }
        guard let hash = Sodium.argon2idString(bytes, passes: UInt64(parameters.passes), memoryBytes: Int(parameters.memoryKiB) * 1024) else {
            throw PasswordHashError("Argon2id could not have \(parameters.memoryKiB) KiB of memory")
        }
        return hash
    }

    /// Whether `password` is the one `encoded` (an Argon2id PHC string) was made from. False for
    /// a wrong password and for a string that is not an Argon2id hash.
    package static func verify(_ password: String, against encoded: String) -> Bool {
        let bytes = Array(password.utf8)
        guard bytes.count <= maxPasswordBytes, encoded.hasPrefix("$argon2id$") else { return false }
        return Sodium.verifyArgon2id(bytes, against: encoded)
    }
}
