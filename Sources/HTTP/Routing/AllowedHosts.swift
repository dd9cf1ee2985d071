/// The names a server answers to, checked against each request's `Host` before it is routed.
///
/// A web page whose name its owner points at this machine (DNS rebinding) reaches the server
/// with its own name in `Host`: refusing every name the server was not given keeps such a page
/// from reading or changing anything, reads included (as Django's `ALLOWED_HOSTS`). An IP
/// address needs no name, so no one can point one elsewhere: `anyAddress` admits every IP
/// literal (a server listening on all addresses). The port is not compared; names are compared
/// without case and without a final dot. A request with no `Host` (HTTP/1.0) names nothing and
/// goes on.
public struct AllowedHosts: Sendable {
    /// Names admitted as they are (`photos.example.org`, `localhost`, `127.0.0.1`, `[::1]`), lowercase.
    let names: Set<String>
    /// Names admitted with every name under them: `.example.org` admits `example.org` and `a.example.org`.
    let domains: [String]
    /// Whether every IPv4 or bracketed IPv6 literal is admitted.
    let anyAddress: Bool
    /// Whether every name is admitted (`*`): the check is off.
    let anyName: Bool
    /// Told of each refused name (the application logs the first of each).
    let onRefused: (@Sendable (_ name: String) -> Void)?

    /// Every name: no check (a router made for a test, a server that was given none).
    public static let any = AllowedHosts(names: [], domains: [], anyAddress: true, anyName: true, onRefused: nil)

    /// `entries` are names, `.domain` for a domain and every name under it, or `*` for any name.
    public init(_ entries: [String], anyAddress: Bool = false, onRefused: (@Sendable (_ name: String) -> Void)? = nil) {
        var names = Set<String>(), domains: [String] = []
        var anyName = false
        for entry in entries {
            let name = Self.normalised(entry[...])
            if name == "*" { anyName = true } else if name.hasPrefix(".") { domains.append(String(name.dropFirst())) } else if !name.isEmpty { names.insert(name) }
        }
        self.init(names: names, domains: domains, anyAddress: anyAddress, anyName: anyName, onRefused: onRefused)
    }

    private init(names: Set<String>, domains: [String], anyAddress: Bool, anyName: Bool, onRefused: (@Sendable (String) -> Void)?) {
        self.names = names
        self.domains = domains
        self.anyAddress = anyAddress
        self.anyName = anyName
        self.onRefused = onRefused
    }

    /// Whether a request naming `host` (a `Host` value: a name or address, an optional port) is answered.
    public func admits(_ host: String) -> Bool {
        if anyName { return true }
        let name = Self.name(of: host)
        if names.contains(name) { return true }
        if anyAddress && Self.isAddressLiteral(name) { return true }
        return domains.contains { name == $0 || name.hasSuffix("." + $0) }
    }

    /// The refusal of a request naming `host`, or nil to go on.
    public func refusal(forHost host: String?) -> HTTPError? {
        guard let host, !admits(host) else { return nil }
        let name = Self.name(of: host)
        onRefused?(name)
        return HTTPError(.misdirectedRequest, "This server does not answer to the name \(name.prefix(100)): it is not one of its allowed hosts.",
                         headers: ["Cache-Control": "no-store"])
    }

    /// The name or address a `Host` value names, lowercase, without its port or final dot:
    /// `[::1]:8080` → `[::1]`, `Photos.Example.org.:443` → `photos.example.org`.
    public static func name(of host: String) -> String { normalised(name(in: host)) }

    /// The name or address of a `Host` value, without its port.
    static func name(in host: String) -> Substring {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return host[...] }
            return host[...close]
        }
        guard let colon = host.lastIndex(of: ":") else { return host[...] }
        return host[..<colon]
    }

    /// Lowercase, without the final dot a fully qualified name may end with.
    static func normalised(_ name: Substring) -> String {
        var name = name.lowercased()
        if name.count > 1 && name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Whether `name` is an address rather than a name: four decimal numbers of at most 255,
    /// or an IPv6 literal in brackets.
    public static func isAddressLiteral(_ name: String) -> Bool {
        if name.hasPrefix("[") { return name.hasSuffix("]") && name.count > 2 }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigitCharacter) && Int(part)! <= 255
        }
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
