import Foundation
import HTTP

/// Tells posters apart, for the rate limit and the address kept with each comment.
///
/// By default a client is its connection's remote address. `X-Forwarded-For` is believed only
/// when the connection comes from a configured reverse proxy (`trustedProxies`), because anyone
/// can send that header; then the client is the right-most address in it that is not itself a
/// trusted proxy, which is the one the nearest trusted proxy saw and appended.
package struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    /// `trustedProxies` is the setting's text: addresses separated by commas.
    package init(trustedProxies: String) {
        self.trustedProxies = Set(trustedProxies.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty })
    }

    /// The address `request` is from.
    package func of(_ request: HTTPRequest) -> String {
        guard trustedProxies.contains(request.remoteAddress) else { return request.remoteAddress }
        let hops = request.headers.values("X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if let client = hops.last(where: { !trustedProxies.contains($0) }) { return String(client.prefix(64)) }
        return hops.first.map { String($0.prefix(64)) } ?? request.remoteAddress
    }
}
