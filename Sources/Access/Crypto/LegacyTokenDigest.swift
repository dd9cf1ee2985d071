// The only Swift file that sees libargon2, and only to read what an older version wrote: libsodium
// computes Argon2id too, but with 16-byte salts alone, and these digests were made under a 24-byte one.
// It goes (with CArgon2 in Package.swift and libargon2 in the install lists) once no database can
// still hold a row of `TokenDigest.Scheme.argon2id`: every such session ends within
// `sessionLifetimeSeconds` of the upgrade, and setup tokens when an owner is made.
private import CArgon2

/// The digest tokens were kept under before access schema step 7: Argon2id at its least cost (one
/// pass over 8 KiB, one lane) under a fixed salt, as 64 hex digits. Read, never written.
enum LegacyTokenDigest {
    static func digest(_ token: String) -> String {
        let bytes = Array(token.utf8)
        let salt = Array("photoscroll-token-digest".utf8)
        var out = [UInt8](repeating: 0, count: 32)
        let code = bytes.withUnsafeBytes { token in
            salt.withUnsafeBytes { salt in
                argon2id_hash_raw(1, 8, 1, token.baseAddress, token.count, salt.baseAddress, salt.count, &out, out.count)
            }
        }
        // Only memory exhaustion fails at these sizes; no digest then matches any stored one.
        guard code == ARGON2_OK.rawValue else { return "" }
        return TokenDigest.hex(out)
    }
}
