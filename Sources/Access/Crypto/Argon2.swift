private import CArgon2
import POSIX

/// Argon2 (RFC 9106) from libargon2, Debian's reference implementation: the only file that
/// sees the C library. Passwords are hashed with Argon2id into the PHC string format
/// (`$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>`), which carries its own parameters, so a
/// hash made under other parameters still verifies. libargon2's verify compares the hashes in
/// constant time. Random bytes for salts and tokens come from the kernel (`KernelRandom`).
public enum Argon2 {
    /// The cost of one hash: passes over memory, memory in KiB, lanes.
    public struct Parameters: Sendable, Equatable {
        public var timeCost: UInt32
        public var memoryKiB: UInt32
        public var parallelism: UInt32

        public init(timeCost: UInt32, memoryKiB: UInt32, parallelism: UInt32) {
            self.timeCost = timeCost
            self.memoryKiB = memoryKiB
            self.parallelism = parallelism
        }

        /// RFC 9106 §4, the second recommended option (for memory that cannot spare 2 GiB): 3
        /// passes over 64 MiB in 4 lanes. About a quarter of a second on one core of a laptop.
        public static let passwords = Parameters(timeCost: 3, memoryKiB: 64 * 1024, parallelism: 4)

        /// The least libargon2 allows (one pass over 8 KiB): for digests of random tokens,
        /// whose 256 bits of entropy need no slowing down, only a one-way function.
        public static let digest = Parameters(timeCost: 1, memoryKiB: 8, parallelism: 1)
    }

    /// Salt length for password hashes: RFC 9106 recommends 16 bytes.
    static let saltBytes = 16
    /// Hash length: 32 bytes.
    static let hashBytes = 32
    /// The longest password hashed; longer ones are refused before any work is done.
    public static let maxPasswordBytes = 1024

    /// Argon2id of `password` under a fresh random salt, as a PHC string.
    public static func hashPassword(_ password: String, parameters: Parameters = .passwords) throws -> String {
        let salt = try KernelRandom.bytes(saltBytes)
        let bytes = Array(password.utf8)
        guard bytes.count <= maxPasswordBytes else { throw Argon2Error(code: -1, message: "the password is longer than \(maxPasswordBytes) bytes") }
        let length = argon2_encodedlen(parameters.timeCost, parameters.memoryKiB, parameters.parallelism, UInt32(salt.count),
                                       UInt32(hashBytes), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let code = bytes.withUnsafeBytes { password in
            salt.withUnsafeBytes { salt in
                argon2id_hash_encoded(parameters.timeCost, parameters.memoryKiB, parameters.parallelism,
                                      password.baseAddress, password.count, salt.baseAddress, salt.count, hashBytes,
                                      &encoded, length)
            }
        }
        try check(code)
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `encoded` (a PHC string from `hashPassword`) was made
    /// from. False for a wrong password and for a string that is not an Argon2id hash.
    public static func verify(_ password: String, against encoded: String) -> Bool {
        let bytes = Array(password.utf8)
        guard bytes.count <= maxPasswordBytes, encoded.hasPrefix("$argon2id$") else { return false }
        return encoded.withCString { encoded in
            bytes.withUnsafeBytes { argon2id_verify(encoded, $0.baseAddress, $0.count) == ARGON2_OK.rawValue }
        }
    }

    /// A one-way digest of a random token (a session id, a share link's token), as 64 hex
    /// digits: what the database keeps, so a copy of it opens no session. Argon2id at its
    /// least cost under a fixed salt, so the same token always gives the same digest.
    public static func digest(_ token: String) -> String {
        let bytes = Array(token.utf8)
        let salt = Array("photoscroll-token-digest".utf8)
        var out = [UInt8](repeating: 0, count: hashBytes)
        let p = Parameters.digest
        let code = bytes.withUnsafeBytes { token in
            salt.withUnsafeBytes { salt in
                argon2id_hash_raw(p.timeCost, p.memoryKiB, p.parallelism, token.baseAddress, token.count, salt.baseAddress, salt.count,
                                  &out, out.count)
            }
        }
        // Only memory exhaustion fails at these sizes; no digest then matches any stored one.
        guard code == ARGON2_OK.rawValue else { return "" }
        return out.map { byte in String(byte >> 4, radix: 16) + String(byte & 15, radix: 16) }.joined()
    }

    /// Raw Argon2id with every input RFC 9106 defines (secret `K` and associated data `X`
    /// included), for checking the library against the RFC's test vector.
    public static func rawHash(password: [UInt8], salt: [UInt8], secret: [UInt8], associatedData: [UInt8],
                               parameters: Parameters, length: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        var password = password, salt = salt, secret = secret, associatedData = associatedData
        let code = out.withUnsafeMutableBufferPointer { out in
            password.withUnsafeMutableBufferPointer { pwd in
                salt.withUnsafeMutableBufferPointer { salt in
                    secret.withUnsafeMutableBufferPointer { secret in
                        associatedData.withUnsafeMutableBufferPointer { ad in
                            var context = argon2_context(
                                out: out.baseAddress, outlen: UInt32(length),
                                pwd: pwd.baseAddress, pwdlen: UInt32(pwd.count),
                                salt: salt.baseAddress, saltlen: UInt32(salt.count),
                                secret: secret.baseAddress, secretlen: UInt32(secret.count),
                                ad: ad.baseAddress, adlen: UInt32(ad.count),
                                t_cost: parameters.timeCost, m_cost: parameters.memoryKiB,
                                lanes: parameters.parallelism, threads: 1,
                                version: UInt32(ARGON2_VERSION_13.rawValue),
                                allocate_cbk: nil, free_cbk: nil, flags: 0)
                            return argon2id_ctx(&context)
                        }
                    }
                }
            }
        }
        try check(code)
        return out
    }

    private static func check(_ code: Int32) throws {
        guard code != ARGON2_OK.rawValue else { return }
        throw Argon2Error(code: code, message: String(cString: argon2_error_message(code)))
    }
}

/// libargon2 refused: its code and its own words.
public struct Argon2Error: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public var description: String { "argon2: \(message)" }
}
