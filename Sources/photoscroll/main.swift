import App
import Foundation
import Observability

/// The only place that reads argv and the environment.
func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let parsed: ParsedCommandLine
    do {
        parsed = try CommandLineParser.parse(arguments)
    } catch {
        FileHandle.standardError.write(Data("photoscroll: \(error)\n".utf8))
        return 64
    }
    if parsed.help {
        print(CommandLineParser.usage)
        return 0
    }
    let environment = ProcessInfo.processInfo.environment

    if parsed.subcommand == "health" {
        // The server's own settings say where it listens (config.json, environment, --port);
        // a broken config still yields a probe of the default address, never a usage error.
        let explicit = parsed.options["config"] ?? environment["PHOTOSCROLL_CONFIG"]
        let serving = try? Configuration.load(file: explicit ?? "config.json", fileIsExplicit: explicit != nil,
                                              environment: environment, flags: CommandLineParser.configurationFlags(parsed.options))
        let url = parsed.options["url"] ?? HealthCommand.defaultURL(serving ?? Configuration())
        guard let timeout = Double(parsed.options["timeout"] ?? "3") else {
            FileHandle.standardError.write(Data("unhealthy: --timeout takes seconds, like --timeout 3.\n".utf8))
            return 1
        }
        return HealthCommand.run(url: url, timeoutSeconds: timeout)
    }

    let configuration: Configuration
    do {
        let explicit = parsed.options["config"] ?? environment["PHOTOSCROLL_CONFIG"]
        configuration = try Configuration.load(
            file: explicit ?? "config.json", fileIsExplicit: explicit != nil,
            environment: environment, flags: CommandLineParser.configurationFlags(parsed.options))
    } catch {
        FileHandle.standardError.write(Data("photoscroll: configuration: \(error)\n".utf8))
        return 78
    }
    let sink = StreamLogSink(format: LogFormat(rawValue: configuration.logFormat) ?? .text)
    let level: LogLevel = ["debug": .debug, "warning": .warning, "error": .error][configuration.logLevel] ?? .info
    let logger = Logger(label: "photoscroll", level: level, sink: sink)

    do {
        try DatabaseStartup.check(configuration)
        switch parsed.subcommand {
        case "ingest":
            return try IngestCommand.run(configuration: configuration, paths: parsed.positional, logger: logger)
        case "reattach-comments":
            return try ReattachCommentsCommand.run(configuration: configuration, logger: logger)
        case "export":
            guard parsed.positional.count == 1, let out = parsed.options["out"] else {
                throw UsageError(description: "export takes one photo (an id or a file path) and --out DIR.")
            }
            return try ExportCommand.run(configuration: configuration, photo: parsed.positional[0], outputDirectory: out, logger: logger)
        default:
            guard parsed.positional.isEmpty else {
                throw UsageError(description: "serve takes no arguments, but got \(parsed.positional.joined(separator: " ")).")
            }
            // Before Application starts any thread, so every thread inherits the blocked mask.
            ShutdownSignals.block()
            return try Application(configuration: configuration, logger: logger).run()
        }
    } catch let error as UsageError {
        FileHandle.standardError.write(Data("photoscroll: \(error)\n".utf8))
        return 64
    } catch {
        logger.error("\(error)")
        FileHandle.standardError.write(Data("photoscroll: \(error)\n".utf8))
        return 1
    }
}

exit(main())
