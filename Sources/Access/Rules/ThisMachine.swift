import HTTP

/// Whether a request comes from this machine: the one question `manage` on a public library,
/// `/metrics` without a token and anything later ask.
///
/// This machine is a direct loopback peer that names a loopback host and came through no
/// proxy. A proxy on the same machine connects from loopback for the whole world, so a request
/// that carries any forwarding field (`Forwarded`, `X-Forwarded-*`, `X-Real-IP`) is never this
/// machine, whoever sent it; and a page of another site whose name was pointed at 127.0.0.1
/// names its own host, which is not a loopback one (nor served at all: `AllowedHosts`).
package enum ThisMachine {
    package static func asks(_ request: HTTPRequest) -> Bool {
        AccessMode.isLoopback(request.remoteAddress) && isLoopbackHost(request.headers["Host"]) && !isForwarded(request)
    }

    /// Whether a `Host` value names this machine only: `localhost`, 127.0.0.0/8, `[::1]`, any port.
    static func isLoopbackHost(_ host: String?) -> Bool {
        guard let host else { return false }
        let name = AllowedHosts.name(of: host)
        return name == "localhost" || name == "[::1]" || (AllowedHosts.isAddressLiteral(name) && name.hasPrefix("127."))
    }

    /// Whether the request says it was forwarded by a proxy.
    static func isForwarded(_ request: HTTPRequest) -> Bool {
        request.headers.contains("Forwarded") || request.headers.contains("X-Real-IP")
            || request.headers.containsName(prefixed: "X-Forwarded-")
    }
}
