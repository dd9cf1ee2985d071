import Foundation
import HTTP

/// The bearer token that allows deleting comments (`Configuration.adminToken`).
struct AdminToken: Sendable {
    private let expected: [UInt8]

    init(_ token: String) { expected = Array(token.utf8) }

    /// Deletion is off when no token is configured.
    var isEnabled: Bool { !expected.isEmpty }

    /// Checks `Authorization: Bearer <token>`: 403 when deletion is off, 401 (with
    /// `WWW-Authenticate: Bearer`) when the header is missing, malformed or wrong.
    func authorize(_ authorization: String?) throws {
        guard isEnabled else {
            throw HTTPError(.forbidden, "Deleting comments is turned off on this server; set adminToken to turn it on.")
        }
        guard let authorization, let presented = Self.bearerToken(authorization) else {
            throw HTTPError(.unauthorized, "Deleting a comment needs Authorization: Bearer <admin token>.",
                            headers: ["WWW-Authenticate": "Bearer realm=\"photoscroll\""])
        }
        guard Self.constantTimeEquals(Array(presented.utf8), expected) else {
            throw HTTPError(.unauthorized, "The admin token is not right.",
                            headers: ["WWW-Authenticate": "Bearer realm=\"photoscroll\", error=\"invalid_token\""])
        }
    }

    /// The token of a `Bearer` credential; the scheme is case-insensitive (RFC 9110 §11.1).
    static func bearerToken(_ header: String) -> String? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = trimmed.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Compares without returning early, so the time taken does not reveal how much of a guess was
    /// right. It always walks the expected token's length; only whether the lengths differ can leak.
    static func constantTimeEquals(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(presented.count == expected.count ? 0 : 1)
        for index in expected.indices {
            let byte = index < presented.count ? presented[index] : 0
            difference |= byte ^ expected[index]
        }
        return difference == 0
    }
}
