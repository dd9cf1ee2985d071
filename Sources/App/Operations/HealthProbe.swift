import Dispatch
import Foundation
import HTTP
import POSIX
import Synchronization

/// A one-shot GET of `/healthz` with one deadline for everything: what a container health check
/// needs, in the binary itself, so the image carries no curl. The wire is the HTTP module's
/// client; failures become `HealthProbeError`s worded for the log of a health check.
struct HealthProbe {
    /// Where to send the probe: `http://host:port/path`, path defaulting to `/healthz`.
    struct Target: Equatable, CustomStringConvertible {
        var host: String
        var port: Int
        var path: String

        var description: String {
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "http://\(shownHost):\(port)\(path)"
        }
    }

    /// `http://127.0.0.1:8080` → `127.0.0.1`, 8080, `/healthz`. A URL already ending in `/healthz` is kept.
    static func target(url: String) throws -> Target {
        guard url.lowercased().hasPrefix("http://") else {
            throw HealthProbeError("\(url) is not an http:// URL; health talks plain HTTP to the server's own port.")
        }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        var path = String(rest.dropFirst(authority.count))
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw HealthProbeError("\(url) has an unclosed [ in its host.") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw HealthProbeError("\(url) has something after the ] of its host that is not a port.")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw HealthProbeError("\(url) names no host.") }
        var port = 80
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw HealthProbeError("\(url) has no valid port (1–65535) after the colon.")
            }
            port = p
        }
        if path.hasSuffix("/") { path.removeLast() }
        if !path.hasSuffix("/healthz") { path += "/healthz" }
        return Target(host: String(host), port: port, path: path)
    }

    /// Sends `GET path` and reads the answer, all within `timeoutSeconds`: the client's own
    /// timeouts bound each step, this deadline bounds them together.
    static func get(_ target: Target, timeoutSeconds: Double) throws -> HTTPClientResponse {
        final class Outcome: Sendable {
            let result = Mutex<Result<HTTPClientResponse, any Error>?>(nil)
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread {
            let result = Result {
                // A second longer than the deadline: the deadline below decides when there is no
                // answer, and says so in one way, rather than racing the socket's own timeout.
                try HTTPClient.request(.GET, url: target.description,
                                       headers: ["User-Agent": "photoscroll-health", "Accept": "application/json"],
                                       timeoutSeconds: timeoutSeconds + 1)
            }
            outcome.result.withLock { $0 = result }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + timeoutSeconds) == .success, let result = outcome.result.withLock({ $0 }) else {
            throw HealthProbeError("no answer from \(target) within \(formatSeconds(timeoutSeconds)).")
        }
        do {
            return try result.get()
        } catch let error as SystemCallError where error.call.hasPrefix("getaddrinfo") {
            throw HealthProbeError("cannot resolve \(target.host).")
        } catch let error as SystemCallError {
            throw HealthProbeError("cannot reach \(target): \(error.reason).")
        } catch {
            throw HealthProbeError("\(target) gave no usable answer: \(error).")
        }
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
