import Foundation
import HTTP

/// The bearer token that allows deleting comments (`Configuration.adminToken`).
///
/// Guesses are throttled per client (its address, or its /64 for IPv6): after
/// `FailureThrottle.Policy.failures` wrong tokens in a burst, further attempts get 429 with
/// `Retry-After` and are not compared at all, until the client's count has drained. The
/// comparison itself takes the same time whatever the guess (`SecretComparison`).
package struct AdminToken: Sendable {
    private let expected: [UInt8]
    let throttle: FailureThrottle

    package init(_ token: String, throttle: FailureThrottle = FailureThrottle()) {
        expected = Array(token.utf8)
        self.throttle = throttle
    }

    /// Deletion is off when no token is configured.
    var isEnabled: Bool { !expected.isEmpty }

    /// Checks `Authorization: Bearer <token>` from `client`: 403 when deletion is off, 429 (with
    /// `Retry-After`) while the client has guessed wrong too often, 401 (with
    /// `WWW-Authenticate: Bearer`) when the header is missing, malformed or wrong.
    package func authorize(_ authorization: String?, client: String) throws {
        guard isEnabled else {
            throw HTTPError(.forbidden, "Deleting comments is turned off on this server; set adminToken to turn it on.")
        }
        let keys = FailureThrottle.keys(forClient: client)
        if case .limited(let seconds) = throttle.check(keys) { throw Self.tooManyGuesses(seconds) }
        guard let authorization, let presented = Self.bearerToken(authorization) else {
            throw HTTPError(.unauthorized, "Deleting a comment needs Authorization: Bearer <admin token>.",
                            headers: ["WWW-Authenticate": "Bearer realm=\"photoscroll\""])
        }
        guard SecretComparison.equals(Array(presented.utf8), expected) else {
            throttle.fail(keys)
            throw HTTPError(.unauthorized, "The admin token is not right.",
                            headers: ["WWW-Authenticate": "Bearer realm=\"photoscroll\", error=\"invalid_token\""])
        }
    }

    static func tooManyGuesses(_ seconds: Int) -> HTTPError {
        HTTPError(.tooManyRequests, "Too many wrong admin tokens from your address; try again in \(seconds) s.",
                  headers: ["Retry-After": String(seconds)])
    }

    /// The token of a `Bearer` credential; the scheme is case-insensitive (RFC 9110 §11.1).
    static func bearerToken(_ header: String) -> String? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = trimmed.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
