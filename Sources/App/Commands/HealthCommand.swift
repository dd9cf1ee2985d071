import Dispatch
import Foundation
import POSIX

/// `photoscroll health [--url URL] [--timeout S]`: exit 0 when the server answers GET /healthz
/// with 200, 1 otherwise, saying why in one line (the container health check's log shows it).
public struct HealthCommand: Sendable, Equatable {
    /// `--url`, or nil for where the server's settings say it listens.
    public var url: String?
    /// `--timeout` as given: text that is no number is reported as unhealthy when run.
    public var timeout: String
    public var configuration: ConfigurationOptions

    public init(url: String? = nil, timeout: String = "3", configuration: ConfigurationOptions = ConfigurationOptions()) {
        self.url = url
        self.timeout = timeout
        self.configuration = configuration
    }

    /// Probes `url` (its `/healthz`), prints one line, and returns the exit code.
    public static func run(url: String, timeoutSeconds: Double) -> Int32 {
        let (code, message) = check(url: url, timeoutSeconds: timeoutSeconds)
        report(code: code, message: message)
        return code
    }

    /// The line on stdout when healthy, on stderr when not.
    static func report(code: Int32, message: String) {
        if code == 0 {
            print(message)
            System.flushOutputStreams() // every output stream: the C global `stdout` is not concurrency-safe
        } else {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
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
        let started = ContinuousClock.now
        do {
            let answer = try HealthProbe.get(target, timeoutSeconds: timeoutSeconds)
            let milliseconds = Int((ContinuousClock.now - started) / .milliseconds(1))
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

extension HealthCommand: Command {
    public static let name = "health"
    public static let usage = "photoscroll health [--url URL] [--timeout SECONDS] [--config FILE] [--port N]"
    public static let abstract = """
    Exit 0 when the server answers GET /healthz with 200, 1 otherwise, saying why in one line. The URL
    defaults to where the server's own settings (config.json, environment, flags) say it listens.
    """
    public static var options: [String] { ["url", "timeout"] + ConfigurationOptions.names }
    public static var optionHelp: [String: String] {
        ["url": "URL       The server to probe (its /healthz).", "timeout": "SECONDS  How long to wait for the answer (default 3)."]
    }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        // A probe's mistakes are "unhealthy" (exit 1), never usage errors: a container's health
        // check shows the line, and a broken config still probes the default address.
        self.init(url: arguments.options["url"], timeout: arguments.options["timeout"] ?? "3",
                  configuration: try ConfigurationOptions(arguments, checkingValues: false))
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let serving = try? Self.configuration(configuration, environment: environment)
        let url = self.url ?? Self.defaultURL(serving ?? Configuration())
        guard let seconds = Double(timeout) else {
            Self.report(code: 1, message: "unhealthy: --timeout takes seconds, like --timeout 3.")
            return 1
        }
        return Self.run(url: url, timeoutSeconds: seconds)
    }
}
