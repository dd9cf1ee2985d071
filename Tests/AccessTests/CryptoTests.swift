import XCTest
@testable import Access

/// Access's crypto: libsodium's Argon2id (and its reading of libargon2's hashes), the keyed token
/// digest, the old digest it replaced, base64url.
final class CryptoTests: XCTestCase {
    /// Made by libargon2 (`argon2id_hash_encoded`, 3 passes, four lanes) as the server did before
    /// its hashes moved to libsodium: accounts and link passwords stored then must go on working.
    static let libargon2Hashes = [
        "$argon2id$v=19$m=64,t=3,p=4$AQgPFh0kKzI5QEdOVVxjag$BdR4Sb2Zdi0Xfu3ySTl5OmmF+P0omP5wFGreqJErf0k",
        "$argon2id$v=19$m=65536,t=3,p=4$AQgPFh0kKzI5QEdOVVxjag$IT2PDl2pWkIycWO1XeVpqQp30SxnxrHplpbH2RZW3r4",
    ]

    func testAHashLibargon2MadeWithFourLanesVerifiesWithLibsodium() {
        for hash in Self.libargon2Hashes {
            XCTAssertTrue(PasswordHash.verify("correct horse battery staple", against: hash), hash)
            XCTAssertFalse(PasswordHash.verify("correct horse battery stapler", against: hash), hash)
        }
    }

    func testAPasswordHashVerifiesOnlyItsOwnPasswordAndCarriesItsParameters() throws {
        let parameters = PasswordHash.Parameters(passes: 1, memoryKiB: 64)
        let hash = try PasswordHash.make("correct horse battery", parameters: parameters)
        XCTAssertTrue(hash.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"), hash)
        XCTAssertTrue(PasswordHash.verify("correct horse battery", against: hash))
        XCTAssertFalse(PasswordHash.verify("correct horse batterz", against: hash))
        XCTAssertFalse(PasswordHash.verify("", against: hash))
        XCTAssertFalse(PasswordHash.verify("correct horse battery", against: "not a hash"))
        XCTAssertFalse(PasswordHash.verify("correct horse battery", against: "$argon2i$v=19$m=64,t=1,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAA"))
        // A fresh salt each time.
        XCTAssertNotEqual(hash, try PasswordHash.make("correct horse battery", parameters: parameters))
        XCTAssertThrowsError(try PasswordHash.make(String(repeating: "x", count: PasswordHash.maxPasswordBytes + 1), parameters: parameters))
    }

    func testTheDefaultParametersAreRFC9106sSecondRecommendationInOneLane() {
        XCTAssertEqual(PasswordHash.Parameters.passwords, PasswordHash.Parameters(passes: 3, memoryKiB: 65_536))
    }

    /// The digest an older version stored, for one token, as libargon2 computed it then.
    func testTheLegacyDigestIsTheOneTheOlderVersionStored() {
        XCTAssertEqual(LegacyTokenDigest.digest(String(repeating: "A", count: 43)),
                       "982563747aa8a3ed1ed8856b8939ffb5f87069baca30cd840a5efa85fbd99178")
    }

    /// Keyed BLAKE2b-256 (RFC 7693) of a token under the key 00 01 … 1f.
    func testATokensDigestIsKeyedBLAKE2b() throws {
        let digest = TokenDigest(key: Array(0..<32))
        let token = String(repeating: "A", count: 43)
        XCTAssertEqual(digest(token), "cbf4c7ac8cd425e8051a0027cd4a64f3343dc8ecad99752cf7103e71cd929a56")
        XCTAssertNotEqual(TokenDigest(key: Array(1...32))(token), digest(token))
        XCTAssertNotEqual(digest(try AccessToken.make()), digest(token))
        XCTAssertEqual(TokenDigest.bytes(hex: TokenDigest.hex(Array(0...255))), Array(0...255))
        XCTAssertNil(TokenDigest.bytes(hex: "0g"))
        XCTAssertNil(TokenDigest.bytes(hex: "abc"))
    }

    func testTokensAre43Base64URLCharactersFromTheKernel() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let token = try AccessToken.make()
            XCTAssertEqual(token.count, 43)
            XCTAssertTrue(AccessToken.isWellFormed(token), token)
            XCTAssertEqual(TokenKey(token)?.text, token)
            seen.insert(token)
        }
        XCTAssertEqual(seen.count, 200)
        XCTAssertEqual(Base64URL.encode([0xfb, 0xff, 0xbf]), "-_-_")
        XCTAssertEqual(Base64URL.encode([0x66, 0x6f]), "Zm8")
        XCTAssertEqual(Base64URL.encode([]), "")
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 42)))
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 44)))
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 42) + "="))
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 42) + "é"))
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 42) + "+"))
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 41) + "/a"))
        // 43 characters carry 258 bits: a last character whose two spare bits are set is no token of ours.
        XCTAssertTrue(AccessToken.isWellFormed(String(repeating: "A", count: 42) + "E"))
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "A", count: 42) + "B"))
    }

    func testATokenKeyIsTheTokensBytes() throws {
        let token = Base64URL.encode(Array(0..<32))
        let key = try XCTUnwrap(TokenKey(token))
        XCTAssertEqual(key.text, token)
        XCTAssertEqual(key.a, 0x0001_0203_0405_0607)
        XCTAssertEqual(key.d, 0x1819_1a1b_1c1d_1e1f)
        XCTAssertNotEqual(TokenKey(Base64URL.encode(Array(1...32))), key)
    }

    func testSecretsAreComparedWhateverTheirLengths() {
        XCTAssertTrue(SecretComparison.equals(Array("abc".utf8), Array("abc".utf8)))
        XCTAssertFalse(SecretComparison.equals(Array("abd".utf8), Array("abc".utf8)))
        XCTAssertFalse(SecretComparison.equals(Array("ab".utf8), Array("abc".utf8)))
        XCTAssertFalse(SecretComparison.equals(Array("abc\0".utf8), Array("abc".utf8)))
        XCTAssertFalse(SecretComparison.equals([], Array("abc".utf8)))
        XCTAssertTrue(SecretComparison.equals([], []))
    }
}
