import App

/// A command line split into a subcommand, its options and its positional arguments.
struct ParsedCommandLine {
    var subcommand = "serve"
    var options: [String: String] = [:]
    var positional: [String] = []
    var help = false
}

/// A mistake on the command line, said so the person can fix it.
struct UsageError: Error, CustomStringConvertible {
    var description: String
}

enum CommandLineParser {
    static let subcommands = ["serve", "ingest", "export", "health", "reattach-comments"]

    /// Options that are not configuration keys.
    static let extraOptions = ["config", "out", "url", "timeout"]

    static func parse(_ arguments: [String]) throws -> ParsedCommandLine {
        var result = ParsedCommandLine()
        var rest = arguments[...]
        if let first = rest.first, subcommands.contains(first) {
            result.subcommand = first
            rest = rest.dropFirst()
        }
        let known = Set(Configuration.keyNames.map(Configuration.flagName) + extraOptions)
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" || argument == "help" {
                result.help = true
            } else if argument == "--" {
                result.positional.append(contentsOf: rest)
                break
            } else if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                var value: String?
                if let eq = name.firstIndex(of: "=") {
                    value = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                guard known.contains(name) else {
                    throw UsageError(description: "Unknown option --\(name). Run 'photoscroll --help' for the options.")
                }
                if value == nil {
                    guard let next = rest.popFirst() else { throw UsageError(description: "--\(name) needs a value.") }
                    value = next
                }
                result.options[name] = value
            } else if argument.hasPrefix("-") && argument.count > 1 {
                throw UsageError(description: "Unknown option \(argument). Run 'photoscroll --help' for the options.")
            } else {
                result.positional.append(argument)
            }
        }
        return result
    }

    /// Options that name configuration keys, keyed by key name (`tile-cache-megabytes` → `tileCacheMegabytes`).
    static func configurationFlags(_ options: [String: String]) -> [String: String] {
        var flags: [String: String] = [:]
        for key in Configuration.keyNames {
            if let value = options[Configuration.flagName(key)] { flags[key] = value }
        }
        return flags
    }

    static let usage = """
    PhotoScroll: photos as zoomable tile pyramids, with comments, over HTTP.

    USAGE:
      photoscroll [serve] [--config FILE] [--host H] [--port N] [--photos DIR] [--data DIR]
      photoscroll ingest  [--config FILE] [--photos DIR] [--data DIR] [PATH…]
      photoscroll export  (ID | PATH) --out DIR
      photoscroll health  [--url URL] [--timeout SECONDS]
      photoscroll reattach-comments [--config FILE] [--photos DIR] [--data DIR]

    SUBCOMMANDS:
      serve    Serve the photo library, the API and the web page (the default).
      ingest   Build the tile pyramids of the library, or of the given files, ahead of time.
      export   Write one photo's pyramid as static files any web server can serve.
      health   Exit 0 when the server at URL answers /healthz (default http://127.0.0.1:8080).
      reattach-comments
               After catalog.sqlite was lost: scan, and move each photo's comments to the photo
               that now holds its file. Run with no server on the data folder.

    OPTIONS:
      --config FILE   Settings file (default: config.json in the current folder, if present).
      Every setting in config.json is also a flag: tileCacheMegabytes is --tile-cache-megabytes.
      Environment variables override the file: PHOTOSCROLL_PORT, PHOTOSCROLL_PHOTOS, … and PORT;
      flags override both.
      -h, --help      Show this help.
    """
}
