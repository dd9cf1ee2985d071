import Dispatch
import Foundation

/// `photoscroll health [--url URL] [--timeout S]`: exit 0 when the server answers GET /healthz
/// with 200, 1 otherwise, saying why in one line (the container health check's log shows it).
public enum HealthCommand {
    /// Probes `url` (its `/healthz`), prints one line, and returns the exit code.
    public static func run(url: String, timeoutSeconds: Double) -> Int32 {
        let (code, message) = check(url: url, timeoutSeconds: timeoutSeconds)
        if code == 0 {
            print(message)
            fflush(nil) // every output stream: the C global `stdout` is not concurrency-safe
        } else {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
        return code
    }

    /// Where a server with these settings answers on this machine: its host, or loopback when it
    /// listens on every interface, and its port (8080 when it picks a free one, which no probe can know).
    public static func defaultURL(_ configuration: Configuration) -> String {
        var host = configuration.host
        if host == "0.0.0.0" || host.isEmpty { host = "127.0.0.1" }
        if host == "::" { host = "::1" }
        if host.contains(":") { host = "[\(host)]" }
        return "http://\(host):\(configuration.port == 0 ? 8080 : configuration.port)"
    }

    /// The exit code and the line to print, without printing.
    public static func check(url: String, timeoutSeconds: Double) -> (code: Int32, message: String) {
        let target: HealthProbe.Target
        do {
            target = try HealthProbe.target(url: url)
        } catch {
            return (1, "unhealthy: \(error)")
        }
        guard timeoutSeconds > 0, timeoutSeconds.isFinite else {
            return (1, "unhealthy: --timeout must be a positive number of seconds, not \(timeoutSeconds).")
        }
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            let answer = try HealthProbe.get(target, timeoutSeconds: timeoutSeconds)
            let milliseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
            if answer.status == 200 {
                return (0, "healthy: \(target) answered 200 in \(milliseconds) ms")
            }
            let detail = problemDetail(answer.text).map { ": \($0)" } ?? ""
            return (1, "unhealthy: \(target) answered \(answer.status) \(answer.reason)\(detail)")
        } catch {
            return (1, "unhealthy: \(error)")
        }
    }

    /// The `detail` of a problem+json body, so the line says why the server is not healthy.
    static func problemDetail(_ body: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return nil }
        return (object["detail"] as? String).map { $0.replacingOccurrences(of: "\n", with: " ") }
    }
}
