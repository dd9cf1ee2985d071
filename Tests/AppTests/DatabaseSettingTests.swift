import Foundation
import Library
import SQL
import SQLTesting
import TestSupport
import XCTest
@testable import App

/// The `database` setting: parsed and checked with the other settings, and tried at start.
final class DatabaseSettingTests: XCTestCase {
    func testEmptyMeansSQLiteAndAURLIsParsedFromEveryPlaceSettingsComeFrom() throws {
        XCTAssertNil(try Configuration.load(file: nil, environment: [:]).postgresURL)
        let fromEnvironment = try Configuration.load(file: nil, environment: ["PHOTOSCROLL_DATABASE": "postgres://app:pw@db:5433/photos?sslmode=require"])
        XCTAssertEqual(fromEnvironment.postgresURL?.host, "db")
        XCTAssertEqual(fromEnvironment.postgresURL?.port, 5433)
        let fromFlag = try Configuration.load(file: nil, environment: [:], flags: ["database": "postgresql://db/photos"])
        XCTAssertEqual(fromFlag.postgresURL?.database, "photos")
    }

    func testABadURLStopsTheLoadNamingTheSettingAndTheMistakeButNotThePassword() {
        let cases = [
            ("mysql://app:hunter2@db/photos", "scheme must be postgres://"),
            ("postgres://app:hunter2@db/photos?sslmode=sometimes", "sslmode must be one of"),
            ("postgres://app:hunter2@db:0/photos", "port must be a number from 1 to 65535"),
            ("data/catalog.sqlite", "not a URL"),
        ]
        for (value, expected) in cases {
            XCTAssertThrowsError(try Configuration.load(file: nil, environment: ["PHOTOSCROLL_DATABASE": value])) { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix("database must be empty"), text)
                XCTAssertTrue(text.contains(expected), "\(value): \(text)")
                XCTAssertFalse(text.contains("hunter2"), "the password stays out of messages: \(text)")
            }
        }
    }

    func testAnUnreachableServerStopsTheStartNamingIt() throws {
        let result = try runServe(database: "postgres://app:hunter2@127.0.0.1:\(try closedPort())/photos?connect_timeout=2")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("database: cannot connect to PostgreSQL at 127.0.0.1:"), result.stderr)
        XCTAssertFalse(result.stderr.contains("hunter2"), result.stderr)
    }

    func testAReachableServerIsMigratedAtStartAndHoldsTheCatalogAndTheComments() throws {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        defer { try? cluster.dropDatabase(url) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("database-setting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try CommentDurabilityTests.makePhoto(at: folder.appendingPathComponent("photos/one.jpg").path)
        let server = try ServerProcess(name: "serve", arguments: ["--data", folder.appendingPathComponent("data").path,
                                                                  "--photos", folder.appendingPathComponent("photos").path],
                                       environment: ["PHOTOSCROLL_DATABASE": url.description, "PHOTOSCROLL_LOG_LEVEL": "warning"],
                                       directory: folder)
        defer { server.stop() }
        XCTAssertTrue(try eventually { try server.request("/readyz").status == 200 }, server.logTail)
        let posted = try server.request("/photos/1/comments", method: .POST, headers: ["Content-Type": "application/json"],
                                        body: Array(#"{"text":"kept in PostgreSQL"}"#.utf8))
        XCTAssertEqual(posted.status, 201, posted.text)

        let db = try SQLDatabase(.postgres(url))
        defer { db.close() }
        XCTAssertEqual(try db.scalar("SELECT text FROM comments", as: String.self), "kept in PostgreSQL")
        XCTAssertEqual(try db.scalar("SELECT MAX(version) FROM schema_migrations WHERE schema_name = 'comments'", as: Int.self), 5)
        XCTAssertEqual(try db.scalar("SELECT MAX(version) FROM schema_migrations WHERE schema_name = 'catalog'", as: Int.self),
                       CatalogSchema.latestVersion)
        XCTAssertEqual(try db.scalar("SELECT path FROM photos WHERE id = 1", as: String.self), "one.jpg")
        for file in ["comments.sqlite", "catalog.sqlite", "search.sqlite"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/" + file).path),
                           "no \(file) of its own beside the shared database")
        }
    }

    func testABadURLInTheEnvironmentExitsAsAConfigurationError() throws {
        let result = try runServe(database: "postgres://db/photos?sslmod=require")
        XCTAssertEqual(result.status, 78)
        XCTAssertTrue(result.stderr.contains("unknown parameter \"sslmod\""), result.stderr)
    }

    /// Runs `photoscroll serve` in a fresh folder with `PHOTOSCROLL_DATABASE` set; it is expected to stop by itself.
    private func runServe(database: String) throws -> (status: Int32, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("database-setting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, log) = try ServerProcess.refusedStart(
            command: ["serve", "--port", "0"],
            exactEnvironment: ["PHOTOSCROLL_DATABASE": database, "PHOTOSCROLL_DATA": folder.path, "PHOTOSCROLL_RESCAN_SECONDS": "0"],
            directory: folder)
        return (status, log)
    }

    private func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
