import XCTest
@testable import App

/// `photoscroll …` parsed into command values, and the words of every usage error.
final class CommandLineTests: XCTestCase {
    private func command(_ line: String) throws -> any Command {
        switch try PhotoScrollCommand.parse(words(line)) {
        case .run(let command): return command
        case .help(let text): throw UsageError.missing("help instead of a command: \(text.prefix(40))")
        }
    }

    private func words(_ line: String) -> [String] { line.split(separator: " ").map(String.init) }

    func testEachCommandLineGivesItsValue() throws {
        let table: [(String, any Command & Equatable)] = [
            ("", ServeCommand()),
            ("serve", ServeCommand()),
            ("--port 9000", ServeCommand(configuration: ConfigurationOptions(flags: ["port": "9000"]))),
            ("serve --port=0 --photos /p --config c.json",
             ServeCommand(configuration: ConfigurationOptions(file: "c.json", flags: ["port": "0", "photos": "/p"]))),
            ("serve --tile-cache-megabytes 64 --public-url http://x/",
             ServeCommand(configuration: ConfigurationOptions(flags: ["tileCacheMegabytes": "64", "publicURL": "http://x/"]))),
            ("serve --port 1 --port 2", ServeCommand(configuration: ConfigurationOptions(flags: ["port": "2"]))),
            ("ingest", IngestCommand()),
            ("ingest a.jpg b --data d", IngestCommand(configuration: ConfigurationOptions(flags: ["data": "d"]), paths: ["a.jpg", "b"])),
            ("ingest -- --odd-name.jpg", IngestCommand(paths: ["--odd-name.jpg"])),
            ("export 7 --out site", ExportCommand(photo: "7", outputDirectory: "site")),
            ("export --out=site /x/y.jpg --photos p",
             ExportCommand(configuration: ConfigurationOptions(flags: ["photos": "p"]), photo: "/x/y.jpg", outputDirectory: "site")),
            ("health", HealthCommand()),
            ("health --url http://h:1 --timeout 0.5", HealthCommand(url: "http://h:1", timeout: "0.5")),
            // A probe reports a timeout that is no number as unhealthy when it runs, not as a usage error.
            ("health --timeout soon", HealthCommand(timeout: "soon")),
            ("health --port eighty", HealthCommand(configuration: ConfigurationOptions(flags: ["port": "eighty"]))),
            ("reattach-comments --data d", ReattachCommentsCommand(configuration: ConfigurationOptions(flags: ["data": "d"]))),
        ]
        for (line, expected) in table {
            let parsed = try command(line)
            XCTAssertTrue(type(of: parsed) == type(of: expected), "'\(line)' gave \(type(of: parsed))")
            XCTAssertTrue(expected.isEqual(parsed), "'\(line)' gave \(parsed)")
        }
    }

    func testEachMistakeSaysWhatToDo() {
        let table: [(String, String)] = [
            ("--prot 80", "unknown option --prot; did you mean --port?"),
            ("serve --phtoos p", "unknown option --phtoos; did you mean --photos?"),
            ("ingest --tile-sise 256", "unknown option --tile-sise; did you mean --tile-size?"),
            ("health --ulr http://h", "unknown option --ulr; did you mean --url?"),
            ("serve --url http://h", "unknown option --url; 'photoscroll serve --help' lists the options."),
            ("serve --zzzzzz 1", "unknown option --zzzzzz; 'photoscroll serve --help' lists the options."),
            ("-v", "unknown option -v; 'photoscroll serve --help' lists the options."),
            ("serve --port", "--port needs a value."),
            ("--port 70000", "--port needs a number from 0 to 65535, not \"70000\"."),
            ("--port eighty", "--port needs a number from 0 to 65535, not \"eighty\"."),
            ("--port -1", "--port needs a number from 0 to 65535, not \"-1\"."),
            ("ingest --tile-size big", "--tile-size needs a whole number, not \"big\"."),
            ("serve --idle-timeout-seconds soon", "--idle-timeout-seconds needs a number, not \"soon\"."),
            ("serve --show-location maybe", "--show-location needs true or false, not \"maybe\"."),
            ("injest", "unknown command injest; did you mean ingest?"),
            ("help exprt", "unknown command exprt; did you mean export?"),
            ("serve extra words", "serve takes no arguments, but got extra words."),
            ("photos", "serve takes no arguments, but got photos."),
            ("reattach-comments now", "reattach-comments takes no arguments, but got now."),
            ("export", "export takes one photo (an id or a file path) and --out DIR."),
            ("export 1 2 --out o", "export takes one photo (an id or a file path) and --out DIR."),
            ("export 1", "export takes one photo (an id or a file path) and --out DIR."),
        ]
        for (line, message) in table {
            XCTAssertThrowsError(try PhotoScrollCommand.parse(words(line)), line) { error in
                XCTAssertEqual((error as? UsageError)?.description, message, line)
            }
        }
    }

    func testHelpIsPerCommand() throws {
        let table: [(String, String)] = [
            ("--help", "SUBCOMMANDS:"), ("-h", "SUBCOMMANDS:"), ("help", "SUBCOMMANDS:"),
            ("--port 70000 --help", "SUBCOMMANDS:"),
            ("serve --help", ServeCommand.usage), ("ingest -h", IngestCommand.usage),
            ("export --help", "--out DIR"), ("health --help", "--timeout SECONDS"),
            ("help reattach-comments", ReattachCommentsCommand.usage),
        ]
        for (line, expected) in table {
            guard case .help(let text) = try PhotoScrollCommand.parse(words(line)) else {
                XCTFail("'\(line)' gave no help")
                continue
            }
            XCTAssertTrue(text.contains(expected), "'\(line)':\n\(text)")
        }
        // The shared flags are listed in each settings-reading command's help.
        XCTAssertTrue(ServeCommand.help.contains("--tile-cache-megabytes"))
        XCTAssertFalse(HealthCommand.help.contains("--out"))
        // Every command is named in the overview.
        for type in PhotoScrollCommand.commands {
            XCTAssertTrue(PhotoScrollCommand.usage.contains("photoscroll \(type.name)") || type.name == "serve", type.name)
        }
    }

    func testCloseIsAFewSlipsAway() {
        XCTAssertEqual(editDistance("prot", "port"), 1)
        XCTAssertEqual(editDistance("", "abc"), 3)
        XCTAssertEqual(editDistance("photos", "photos"), 0)
        XCTAssertEqual(closest(to: "dat", in: ["data", "database"]), "data")
        XCTAssertNil(closest(to: "colour", in: ["port", "host"]))
    }

    /// `main`'s exit codes: 64 for usage, 78 for settings that cannot be used, 0 for help.
    func testMainMapsMistakesToExitCodes() {
        XCTAssertEqual(PhotoScrollCommand.main(["--prot", "1"], environment: [:]), 64)
        XCTAssertEqual(PhotoScrollCommand.main(["--help"], environment: [:]), 0)
        XCTAssertEqual(PhotoScrollCommand.main(["ingest", "--config", "/nonexistent/settings.json"], environment: [:]), 78)
        XCTAssertEqual(PhotoScrollCommand.main(["reattach-comments"], environment: ["PHOTOSCROLL_PORT": "eighty"]), 78)
    }
}

private extension Equatable {
    func isEqual(_ other: Any) -> Bool { (other as? Self) == self }
}
