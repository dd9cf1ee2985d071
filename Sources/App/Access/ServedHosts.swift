import Foundation
import HTTP
import Observability
import Synchronization

/// The names this server answers to in `Host` (`Router.allowedHosts`), from its settings:
/// `localhost` and the loopback addresses always; every IP address when it listens on all of
/// them (the container image), else the address or name it listens on; `publicURL`'s host; and
/// `allowedHosts`. The first request for each other name is logged with the setting that would
/// serve it.
enum ServedHosts {
    static func allowed(_ configuration: Configuration, logger: Logger) -> AllowedHosts {
        var names = ["localhost", "127.0.0.1", "[::1]"]
        let listensEverywhere = ["", "0.0.0.0", "::", "[::]"].contains(configuration.host)
        if !listensEverywhere { names.append(bracketed(configuration.host)) }
        if let host = URLComponents(string: configuration.publicURL)?.host, !host.isEmpty { names.append(bracketed(host)) }
        names += configuration.allowedHosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let log = RefusedNames(logger: logger)
        return AllowedHosts(names, anyAddress: listensEverywhere, onRefused: { log.note($0) })
    }

    /// An IPv6 address as `Host` spells it: in brackets.
    static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// The names refused so far, each logged once (at most `capacity` remembered).
    final class RefusedNames: Sendable {
        let logger: Logger
        let capacity = 256
        private let seen = Mutex(Set<String>())

        init(logger: Logger) { self.logger = logger }

        func note(_ name: String) {
            let first = seen.withLock { seen in
                guard seen.count < capacity, !seen.contains(name) else { return false }
                seen.insert(name)
                return true
            }
            guard first else { return }
            logger.warning("a request for a name this server does not answer to was refused (421); if the name is this server's, "
                + "add it to allowedHosts (PHOTOSCROLL_ALLOWED_HOSTS, --allowed-hosts) or set publicURL",
                [("host", String(name.prefix(200)))])
        }
    }
}
