import XCTest
@testable import Access

final class Argon2Tests: XCTestCase {
    /// RFC 9106 §5.3: Argon2id with every input, version 0x13.
    func testTheRFC9106TestVectorForArgon2id() throws {
        let tag = try Argon2.rawHash(password: [UInt8](repeating: 0x01, count: 32), salt: [UInt8](repeating: 0x02, count: 16),
                                     secret: [UInt8](repeating: 0x03, count: 8), associatedData: [UInt8](repeating: 0x04, count: 12),
                                     parameters: Argon2.Parameters(timeCost: 3, memoryKiB: 32, parallelism: 4), length: 32)
        XCTAssertEqual(tag.map { String(format: "%02x", $0) }.joined(),
                       "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659")
    }

    func testAPasswordHashVerifiesOnlyItsOwnPasswordAndCarriesItsParameters() throws {
        let parameters = Argon2.Parameters(timeCost: 1, memoryKiB: 64, parallelism: 1)
        let hash = try Argon2.hashPassword("correct horse battery", parameters: parameters)
        XCTAssertTrue(hash.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"), hash)
        XCTAssertTrue(Argon2.verify("correct horse battery", against: hash))
        XCTAssertFalse(Argon2.verify("correct horse batterz", against: hash))
        XCTAssertFalse(Argon2.verify("", against: hash))
        XCTAssertFalse(Argon2.verify("correct horse battery", against: "not a hash"))
        XCTAssertFalse(Argon2.verify("correct horse battery", against: "$argon2i$v=19$m=64,t=1,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAA"))
        // A fresh salt each time.
        XCTAssertNotEqual(hash, try Argon2.hashPassword("correct horse battery", parameters: parameters))
    }

    func testTheDefaultParametersAreRFC9106sSecondRecommendation() {
        XCTAssertEqual(Argon2.Parameters.passwords, Argon2.Parameters(timeCost: 3, memoryKiB: 65_536, parallelism: 4))
    }

    func testATokensDigestIsFixedAndOneWay() throws {
        let token = try AccessToken.make()
        let digest = Argon2.digest(token)
        XCTAssertEqual(digest.count, 64)
        XCTAssertEqual(digest, Argon2.digest(token))
        XCTAssertNotEqual(digest, Argon2.digest(try AccessToken.make()))
        XCTAssertFalse(digest.contains(token))
    }

    func testTokensAre43Base64URLCharactersFromTheKernel() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let token = try AccessToken.make()
            XCTAssertEqual(token.count, 43)
            XCTAssertTrue(AccessToken.isWellFormed(token), token)
            seen.insert(token)
        }
        XCTAssertEqual(seen.count, 200)
        XCTAssertEqual(AccessToken.encode([0xfb, 0xff, 0xbf]), "-_-_")
        XCTAssertEqual(AccessToken.encode([0x66, 0x6f]), "Zm8")
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 42)))
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 42) + "=" ))
        XCTAssertFalse(AccessToken.isWellFormed(String(repeating: "a", count: 42) + "é"))
    }
}
