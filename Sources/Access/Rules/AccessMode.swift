/// Whether strangers see the library.
package enum AccessMode: String, Sendable, Equatable {
    /// Anyone who reaches the port sees and comments on everything; signing in is for owners'
    /// work (share links, accounts).
    case `public`
    /// Only signed-in people and link holders see anything but the sign-in page.
    case `private`

    /// The `access` setting: `public`, `private`, or `auto` (public on a loopback `host`,
    /// private on any other, so a server reachable from elsewhere is private out of the box).
    package static func resolve(_ setting: String, host: String) -> AccessMode {
        switch setting {
        case "public": .public
        case "private": .private
        default: isLoopback(host) ? .public : .private
        }
    }

    /// Whether `host` (a listening address or a peer's) is this machine only: 127.0.0.0/8,
    /// `::1`, `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.") || host == "::ffff:127.0.0.1"
    }
}
