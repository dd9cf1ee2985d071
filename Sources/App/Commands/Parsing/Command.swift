import Observability

/// One subcommand as a value: what was parsed from its arguments, and `run()`.
public protocol Command: Sendable {
    /// The word that names it (`serve`).
    static var name: String { get }
    /// `photoscroll serve [--config FILE] …`, the first lines of its `--help`.
    static var usage: String { get }
    /// What it does, for its `--help`.
    static var abstract: String { get }
    /// The options it takes, without dashes.
    static var options: [String] { get }
    /// The options it takes that have no value (`--owner`), without dashes.
    static var flags: [String] { get }
    /// What its own options (not the configuration flags) take, for its `--help`.
    static var optionHelp: [String: String] { get }
    /// Builds the command from its arguments (options already checked against `options`).
    init(_ arguments: ArgumentList) throws(UsageError)
    /// Does the work; returns the process exit code. `environment` is the process's.
    func run(environment: [String: String]) throws -> Int32
}

extension Command {
    /// `photoscroll serve --help`.
    public static var help: String {
        var text = "\(abstract)\n\nUSAGE:\n  \(usage)\n\nOPTIONS:\n"
        let own = flags + options.filter { !ConfigurationOptions.names.contains($0) }
        for option in own { text += "  --\(option) \(optionHelp[option] ?? "")\n" }
        if options.contains("config") {
            text += "  --config FILE   Settings file (default: config.json in the current folder, if present).\n"
            text += "  Every setting in config.json is also a flag; flags override the environment, which\n"
            text += "  overrides the file:\n"
            text += wrapped(Configuration.keyNames.map { "--" + Configuration.flagName($0) }, indent: "    ")
        }
        text += "  -h, --help      Show this help."
        return text
    }
}

/// Words joined into lines of at most 100 characters.
private func wrapped(_ words: [String], indent: String) -> String {
    var lines: [String] = []
    var line = indent
    for word in words {
        if line.count + word.count + 1 > 100 && line != indent {
            lines.append(line)
            line = indent
        }
        line += (line == indent ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n") + "\n"
}

extension Command {
    public static var optionHelp: [String: String] { [:] }
    public static var flags: [String] { [] }

    /// The settings for this run; a failure is a `ConfigurationLoadFailure`.
    static func configuration(_ options: ConfigurationOptions, environment: [String: String]) throws -> Configuration {
        do {
            return try options.load(environment: environment)
        } catch {
            throw ConfigurationLoadFailure(error: error)
        }
    }

    /// The logger the settings ask for: text or JSON lines on stderr, at their level.
    static func logger(_ configuration: Configuration) -> Logger {
        let sink = StreamLogSink(format: LogFormat(rawValue: configuration.logFormat) ?? .text)
        let level: LogLevel = ["debug": .debug, "warning": .warning, "error": .error][configuration.logLevel] ?? .info
        return Logger(label: "photoscroll", level: level, sink: sink)
    }

    /// Runs `body`, writing an error it throws to the log before passing it on.
    static func logging(_ logger: Logger, _ body: () throws -> Int32) throws -> Int32 {
        do {
            return try body()
        } catch {
            logger.error("\(error)")
            throw CommandFailure(error: error)
        }
    }
}
