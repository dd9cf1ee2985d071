import Foundation
import XCTest
@testable import App

final class ConfigurationTests: XCTestCase {
    func testConfigJSONAtTheRootListsEveryKeyWithItsDefault() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("config.json"), encoding: .utf8)
        XCTAssertEqual(text, Configuration().json())
    }

    /// The README's table of settings is the declarations' table, row for row.
    func testTheReadmeTableListsEverySettingAsDeclared() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try XCTUnwrap(lines.firstIndex(of: "| key | default | meaning |"), "README.md has no table of settings")
        let table = lines[start...].prefix { !$0.isEmpty }.joined(separator: "\n") + "\n"
        XCTAssertEqual(table, Configuration.markdownTable, "README.md's table of settings should read:\n\(Configuration.markdownTable)")
    }

    /// Every stored property is a `@Setting`, so the table cannot miss one; names, types and
    /// defaults come from the declarations.
    func testEverySettingIsDeclaredOnceAndTheTableReadsItBack() throws {
        let stored = Mirror(reflecting: Configuration()).children.map { $0.label ?? "" }
        XCTAssertEqual(stored.count, Configuration.settings.count, "a stored property that is not a @Setting: \(stored)")
        XCTAssertEqual(Set(Configuration.keyNames).count, Configuration.settings.count)
        XCTAssertTrue(Configuration.keyNames.contains("trustedProxies"))
        let port = try XCTUnwrap(Configuration.setting("port"))
        XCTAssertEqual(port.kind, .int)
        XCTAssertEqual(port.defaultValue as? Int, 8080)
        XCTAssertEqual(port.environmentName, "PHOTOSCROLL_PORT")
        XCTAssertEqual(try XCTUnwrap(Configuration.setting("publicURL")).flagName, "public-url")
        XCTAssertEqual(try XCTUnwrap(Configuration.setting("headerTimeoutSeconds")).kind, .double)
        XCTAssertEqual(try XCTUnwrap(Configuration.setting("showLocation")).kind, .bool)
        XCTAssertFalse(try XCTUnwrap(Configuration.setting("host")).doc.isEmpty)
    }

    /// Values reach the properties exactly, whatever their spelling.
    func testValuesArriveExactly() throws {
        var c = try Configuration.load(file: nil, environment: ["PHOTOSCROLL_IDLE_TIMEOUT_SECONDS": "0.1",
                                                                "PHOTOSCROLL_WRITE_TIMEOUT_SECONDS": "1e-7",
                                                                "PHOTOSCROLL_ADMIN_TOKEN": " say \"hi\"\n\u{2028}é ",
                                                                "PHOTOSCROLL_MAX_IMAGE_PIXELS": "9007199254740993"])
        XCTAssertEqual(c.idleTimeoutSeconds, 0.1)
        XCTAssertEqual(c.writeTimeoutSeconds, 1e-7)
        XCTAssertEqual(c.adminToken, " say \"hi\"\n\u{2028}é ")
        XCTAssertEqual(c.maxImagePixels, 9_007_199_254_740_993)
        c = try Configuration.load(file: try temporaryFile(#"{"shutdownGraceSeconds": 2.5, "tileSize": 512}"#), environment: [:])
        XCTAssertEqual(c.shutdownGraceSeconds, 2.5)
        XCTAssertEqual(c.tileSize, 512)
        XCTAssertEqual(c.port, 8080, "what no source names keeps its default")
    }

    func testRangesAndChoicesInTheDeclarationsAreChecked() throws {
        func message(_ env: [String: String]) -> String {
            do {
                _ = try Configuration.load(file: nil, environment: env)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(message(["PHOTOSCROLL_JPEG_QUALITY": "101"]), "jpegQuality must be between 1 and 100, not 101.")
        XCTAssertEqual(message(["PHOTOSCROLL_THUMBNAIL_SIZE": "8"]), "thumbnailSize must be between 16 and 2048, not 8.")
        XCTAssertEqual(message(["PHOTOSCROLL_LOG_LEVEL": "loud"]), #"logLevel must be "debug", "info", "warning" or "error", not "loud"."#)
        XCTAssertEqual(message(["PHOTOSCROLL_JPEG_QUALITY": "100", "PHOTOSCROLL_LOG_LEVEL": "error"]), "no error")
    }

    func testEnvironmentOverridesFileAndFlagsOverrideBoth() throws {
        let file = try temporaryFile(#"{"port": 9000, "host": "0.0.0.0", "headerTimeoutSeconds": 5}"#)
        var c = try Configuration.load(file: file, environment: ["PHOTOSCROLL_COMMENTS_PER_MINUTE": "0", "PORT": "7000"])
        XCTAssertEqual(c.port, 7000)
        XCTAssertEqual(c.host, "0.0.0.0")
        XCTAssertEqual(c.commentsPerMinute, 0)
        XCTAssertEqual(c.headerTimeoutSeconds, 5)
        c = try Configuration.load(file: file, environment: ["PHOTOSCROLL_PORT": "7001", "PORT": "7000"], flags: ["port": "0"])
        XCTAssertEqual(c.port, 0)
        c = try Configuration.load(file: file, environment: ["PHOTOSCROLL_PORT": "7001", "PORT": "7000"])
        XCTAssertEqual(c.port, 7001, "the specific variable wins over plain PORT")
        c = try Configuration.load(file: nil, environment: ["PHOTOSCROLL_ADMIN_TOKEN": "s3cret", "PHOTOSCROLL_TILE_CACHE_MEGABYTES": "12"])
        XCTAssertEqual(c.adminToken, "s3cret")
        XCTAssertEqual(c.tileCacheMegabytes, 12)
    }

    func testSettingsThatWouldStarveABrowserAreCautionedAbout() throws {
        XCTAssertEqual(Configuration().cautions, [], "the defaults need no caution")
        var c = Configuration()
        c.maxConnectionsPerClient = 2
        XCTAssertEqual(c.cautions.count, 1)
        XCTAssertTrue(c.cautions[0].hasPrefix("maxConnectionsPerClient is 2,"), c.cautions[0])
        c.maxConnectionsPerClient = 0  // the cap off
        XCTAssertEqual(c.cautions, [])
        c.maxConnectionsPerClient = Configuration.browserConnections
        XCTAssertEqual(c.cautions, [])
    }

    func testBadSettingsAreErrorsThatNameTheKey() throws {
        func message(_ json: String, env: [String: String] = [:]) -> String {
            do {
                _ = try Configuration.load(file: try temporaryFile(json), environment: env)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertTrue(message(#"{"prot": 1}"#).contains("Unknown key \"prot\""))
        XCTAssertTrue(message(#"{"port": "80"}"#).contains("\"port\""))
        XCTAssertTrue(message(#"{"port": 1.5}"#).contains("whole number"))
        XCTAssertTrue(message(#"{"port": true}"#).contains("\"port\""))
        XCTAssertTrue(message(#"{"port": 70000}"#).contains("port must be between"))
        XCTAssertTrue(message(#"{"port": "#).contains("not valid JSON"))
        XCTAssertTrue(message(#"[1]"#).contains("one JSON object"))
        XCTAssertTrue(message(#"{}"#, env: ["PHOTOSCROLL_PORT": "eighty"]).contains("PHOTOSCROLL_PORT"))
        XCTAssertTrue(message(#"{}"#, env: ["PHOTOSCROLL_LOG_FORMAT": "xml"]).contains("logFormat"))
        XCTAssertTrue(message(#"{"extraRoots": "/mnt/a, archive"}"#).contains("extraRoots must list absolute folders"))
        XCTAssertEqual(try Configuration.load(file: try temporaryFile(#"{"extraRoots": "/mnt/a, /mnt/b ,"}"#), environment: [:]).extraRootList,
                       ["/mnt/a", "/mnt/b"])
        XCTAssertThrowsError(try Configuration.load(file: "/nonexistent/config.json", fileIsExplicit: true, environment: [:]))
        XCTAssertNoThrow(try Configuration.load(file: "/nonexistent/config.json", environment: [:]))
    }

    func testSwitchesAreTrueOrFalseInEverySource() throws {
        XCTAssertTrue(Configuration().downloadOriginals)
        XCTAssertFalse(Configuration().showLocation, "where a photo was taken stays on the server unless the owner says")
        var c = try Configuration.load(file: try temporaryFile(#"{"showLocation": true, "downloadOriginals": false}"#), environment: [:])
        XCTAssertTrue(c.showLocation)
        XCTAssertFalse(c.downloadOriginals)
        c = try Configuration.load(file: nil, environment: ["PHOTOSCROLL_SHOW_LOCATION": "true", "PHOTOSCROLL_DOWNLOAD_ORIGINALS": "0"])
        XCTAssertTrue(c.showLocation)
        XCTAssertFalse(c.downloadOriginals)
        c = try Configuration.load(file: nil, environment: [:], flags: ["downloadOriginals": "false"])
        XCTAssertFalse(c.downloadOriginals)
        for bad in [#"{"showLocation": 1}"#, #"{"showLocation": "yes"}"#] {
            XCTAssertThrowsError(try Configuration.load(file: try temporaryFile(bad), environment: [:])) { error in
                XCTAssertTrue("\(error)".contains("\"showLocation\"") && "\(error)".contains("true or false"), "\(error)")
            }
        }
        XCTAssertThrowsError(try Configuration.load(file: nil, environment: ["PHOTOSCROLL_SHOW_LOCATION": "maybe"])) { error in
            XCTAssertTrue("\(error)".contains("PHOTOSCROLL_SHOW_LOCATION"), "\(error)")
        }
    }

    func testEnvironmentNamesAreUpperSnakeCase() {
        let names = Configuration.settings.map(\.environmentName)
        XCTAssertTrue(names.contains("PHOTOSCROLL_COMMENTS_PER_MINUTE"))
        XCTAssertTrue(names.contains("PHOTOSCROLL_TILE_CACHE_MEGABYTES"))
        XCTAssertTrue(names.contains("PHOTOSCROLL_MAX_IMAGE_PIXELS"))
        XCTAssertEqual(Configuration.flagName("tileCacheMegabytes"), "tile-cache-megabytes")
    }

    private func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "config-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
