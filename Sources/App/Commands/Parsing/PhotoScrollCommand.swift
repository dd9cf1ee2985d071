import Foundation

/// `photoscroll [COMMAND] [OPTIONS] [ARGUMENTS]`: parsing gives a command value, or the help
/// text asked for; `main` runs it and maps what goes wrong to an exit code.
public enum PhotoScrollCommand {
    /// The subcommands, in the order `--help` lists them; the first is the default.
    public static let commands: [any Command.Type] = [
        ServeCommand.self, IngestCommand.self, ExportCommand.self, HealthCommand.self, ReattachCommentsCommand.self, UsersCommand.self,
        BackupCommand.self, RestoreCommand.self, MigrateCommand.self, CheckCommand.self,
    ]

    /// What a command line asks for.
    public enum Parsed: Sendable {
        case run(any Command)
        case help(String)
    }

    /// Parses the arguments after the program's name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var rest = arguments[...]
        var type: any Command.Type = ServeCommand.self
        var named = false
        if let first = rest.first, let found = commands.first(where: { $0.name == first }) {
            type = found
            named = true
            rest = rest.dropFirst()
        } else if rest.first == "help" {
            // `photoscroll help ingest`
            rest = rest.dropFirst()
            guard let word = rest.first else { return .help(usage) }
            guard let found = commands.first(where: { $0.name == word }) else {
                throw .unknownCommand(word, suggestion: closest(to: word, in: commands.map { $0.name }))
            }
            return .help(found.help)
        }
        let list = try ArgumentList(Array(rest), command: type.name, options: type.options, flags: type.flags)
        if list.help { return .help(named ? type.help : usage) }
        // `photoscroll injest`: a word where a subcommand may stand, close to one.
        if !named, let word = list.positional.first, !word.contains("/"), !word.contains("."),
           let suggestion = closest(to: word, in: commands.map { $0.name }) {
            throw .unknownCommand(word, suggestion: suggestion)
        }
        return .run(try type.init(list))
    }

    /// Parses, runs, and returns the exit code: 0 done, 1 failed, 64 a usage error, 78 a
    /// configuration error. Messages go to stderr, help to stdout.
    public static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        let command: any Command
        do {
            switch try parse(arguments) {
            case .help(let text):
                print(text)
                return 0
            case .run(let parsed):
                command = parsed
            }
        } catch {
            printError("photoscroll: \(error)")
            return 64
        }
        do {
            return try command.run(environment: environment)
        } catch let error as UsageError {
            printError("photoscroll: \(error)")
            return 64
        } catch let error as ConfigurationLoadFailure {
            printError("photoscroll: \(error)")
            return 78
        } catch {
            printError("photoscroll: \(error)")
            return 1
        }
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// `photoscroll --help`.
    public static let usage = """
    PhotoScroll: photos as zoomable tile pyramids, with comments, over HTTP.

    USAGE:
      photoscroll [serve] [--config FILE] [--host H] [--port N] [--photos DIR] [--data DIR]
      photoscroll ingest  [--config FILE] [--photos DIR] [--data DIR] [PATH…]
      photoscroll export  (ID | PATH) --out DIR
      photoscroll health  [--url URL] [--timeout SECONDS]
      photoscroll reattach-comments [--config FILE] [--photos DIR] [--data DIR]
      photoscroll users (add NAME [--owner] | passwd NAME | remove NAME | list) [--config FILE] [--data DIR] [--database URL]
      photoscroll backup --out FILE [--sessions]
      photoscroll restore FILE [--force]
      photoscroll migrate --to (postgres://… | sqlite) [--force]
      photoscroll check [--repair]

    SUBCOMMANDS:
      serve    Serve the photo library, the API and the web page (the default).
      ingest   Build the tile pyramids of the library, or of the given files, ahead of time.
      export   Write one photo's pyramid as static files any web server can serve.
      health   Exit 0 when the server at URL answers /healthz (default http://127.0.0.1:8080).
      reattach-comments
               After catalog.sqlite was lost: scan, and move each photo's comments to the photo
               that now holds its file. Run with no server on the data folder.
      users    Add an account (the password is read from standard input), change its password,
               remove it, or list the accounts; works while servers run.
      backup   Write comments, accounts, share links, albums, favourites, trash, uploads and the
               catalog's ids into one file, consistent while servers run.
      restore  Put a backup into an empty data folder or PostgreSQL database, with the same ids.
      migrate  Copy the configured database into PostgreSQL (--to postgres://…) or back into
               the data folder (--to sqlite), with the same ids.
      check    Check the catalog, the photo files, every pyramid's tiles and the rows naming
               photos; --repair fixes what is safe.

    OPTIONS:
      --config FILE   Settings file (default: config.json in the current folder, if present).
      Every setting in config.json is also a flag: tileCacheMegabytes is --tile-cache-megabytes.
      Environment variables override the file: PHOTOSCROLL_PORT, PHOTOSCROLL_PHOTOS, … and PORT;
      flags override both.
      -h, --help      Show this help; 'photoscroll COMMAND --help' shows one command's.
    """
}
