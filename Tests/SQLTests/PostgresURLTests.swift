import XCTest
@testable import SQL

final class PostgresURLTests: XCTestCase {
    func testAFullURLIsTakenApart() throws {
        let url = try PostgresURL(parsing: "postgres://app:s%40cret@db.example.com:6543/photos?sslmode=require&connect_timeout=3")
        XCTAssertEqual(url.user, "app")
        XCTAssertEqual(url.password, "s@cret")
        XCTAssertEqual(url.host, "db.example.com")
        XCTAssertEqual(url.port, 6543)
        XCTAssertEqual(url.database, "photos")
        XCTAssertEqual(url.parameters.map(\.0), ["sslmode", "connect_timeout"])
        XCTAssertEqual(url.serverDescription, "db.example.com:6543")
    }

    func testDefaultsIPv6AndSocketFolders() throws {
        let plain = try PostgresURL(parsing: "postgresql://db/photos")
        XCTAssertEqual(plain.port, 5432)
        XCTAssertEqual(plain.user, "")
        XCTAssertNil(plain.password)
        let v6 = try PostgresURL(parsing: "postgres://u@[::1]:5433/photos")
        XCTAssertEqual(v6.host, "::1")
        XCTAssertEqual(v6.port, 5433)
        XCTAssertEqual(v6.serverDescription, "[::1]:5433")
        let socket = try PostgresURL(parsing: "postgres://u@%2Frun%2Fpostgresql/photos")
        XCTAssertEqual(socket.host, "/run/postgresql")
        XCTAssertEqual(socket.serverDescription, "socket /run/postgresql (port 5432)")
        let query = try PostgresURL(parsing: "postgres://u@localhost/photos?host=/tmp/sock&port=7000")
        XCTAssertEqual(query.host, "/tmp/sock")
        XCTAssertEqual(query.port, 7000)
    }

    func testTheDescriptionNeverShowsThePassword() throws {
        let url = try PostgresURL(parsing: "postgres://app:hunter2@db:5432/photos?sslmode=verify-full")
        XCTAssertEqual(url.description, "postgres://app:***@db:5432/photos?sslmode=verify-full")
        XCTAssertFalse(SQLLocation.postgres(url).description.contains("hunter2"))
    }

    func testMistakesAreNamed() {
        let cases: [(String, String)] = [
            ("db.example.com/photos", "not a URL"),
            ("mysql://db/photos", "scheme must be postgres://"),
            ("postgres://db:99999/photos", "port must be a number from 1 to 65535"),
            ("postgres://db:abc/photos", "port must be a number"),
            ("postgres://db", "names no database"),
            ("postgres:///photos", "names no host"),
            ("postgres://db/photos?sslmode=maybe", "sslmode must be one of"),
            ("postgres://db/photos?sslmod=require", "unknown parameter \"sslmod\""),
            ("postgres://db/photos?connect_timeout=soon", "connect_timeout must be whole seconds"),
            ("postgres://a,b/photos", "one host"),
            ("postgres://u:%zz@db/photos", "password has a broken %-escape"),
            ("postgres://[::1/photos", "no closing ]"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try PostgresURL(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text): \(error)")
            }
        }
    }

    func testConnectionKeywordsPutTheURLFirstAndDefaultsAfter() throws {
        let url = try PostgresURL(parsing: "postgres://app:pw@db:5433/photos?connect_timeout=2")
        let pairs = url.connectionKeywords(defaults: [("connect_timeout", "5"), ("application_name", "photoscroll")])
        XCTAssertEqual(pairs.map(\.0), ["host", "port", "dbname", "user", "password", "connect_timeout", "application_name"])
        XCTAssertEqual(pairs.first { $0.0 == "connect_timeout" }?.1, "2", "the URL wins over a default")
    }
}
