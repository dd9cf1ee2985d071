import Dispatch
import Foundation
import SQLTesting
import Synchronization
import XCTest
@testable import SQL

/// The connection pool against a real server: limits, sessions the server ends, a server that goes away and comes back.
final class SQLPoolTests: XCTestCase {
    func testThePoolLendsAtMostItsCapacityAndTimesOutTheNextBorrower() throws {
        try SQLTestDatabase.forEachEngine { place in
            var options = SQLDatabaseOptions()
            options.sqliteConnections = 2
            options.postgres.maxConnections = 2
            options.acquireTimeout = .milliseconds(100)
            let db = try place.open(options: options)
            let borrowed = DispatchSemaphore(value: 0)
            let giveBack = DispatchSemaphore(value: 0)
            let returned = DispatchGroup()
            for _ in 0..<2 {
                returned.enter()
                Thread.detachNewThread {
                    try? db.withConnection { _ in
                        borrowed.signal()
                        giveBack.wait()
                    }
                    returned.leave()
                }
            }
            borrowed.wait()
            borrowed.wait()
            XCTAssertThrowsError(try db.ping()) { error in
                XCTAssertEqual((error as? SQLError)?.kind, .poolTimeout, "\(place.engine): \(error)")
            }
            giveBack.signal()
            giveBack.signal()
            returned.wait()
            XCTAssertNoThrow(try db.ping())
            XCTAssertEqual(db.statistics.open, 2)
            XCTAssertEqual(db.statistics.idle, 2)
        }
    }

    func testIdleConnectionsTheServerEndedAreReplacedWithoutAnError() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        var options = SQLDatabaseOptions()
        options.postgres.applicationName = "idle-test"
        let db = try place.open(options: options)
        try db.ping()
        let before = db.statistics.connects
        XCTAssertEqual(try place.cluster!.terminateSessions(database: place.name, application: "idle-test"), 1)
        try waitUntil { (try? place.cluster!.sessionCount(database: place.name)) == 0 }
        XCTAssertEqual(try db.scalar("SELECT 41 + 1", as: Int.self), 42, "the ended session is noticed before use")
        XCTAssertEqual(db.statistics.connects, before + 1)
    }

    func testASessionEndedWhileLentFailsAsConnectionLostAndThePoolRecovers() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        var options = SQLDatabaseOptions()
        options.postgres.applicationName = "lent-test"
        let db = try place.open(options: options)
        let error = try db.withConnection { c -> SQLError? in
            _ = try c.query("SELECT 1")
            try place.cluster!.terminateSessions(database: place.name, application: "lent-test")
            do {
                _ = try c.query("SELECT 2")
                return nil
            } catch {
                return error as? SQLError
            }
        }
        XCTAssertEqual(error?.kind, .connectionLost, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("127.0.0.1:\(place.cluster!.port)") ?? false, "names the server: \(String(describing: error))")
        XCTAssertEqual(db.statistics.open, 0, "the broken connection was dropped")
        XCTAssertEqual(try db.scalar("SELECT 3", as: Int.self), 3)
    }

    func testAnUnreachableServerFailsAtOpenNamingTheServer() throws {
        let port = try unusedPort()
        let url = PostgresURL(user: "app", host: "127.0.0.1", port: port, database: "photos")
        XCTAssertThrowsError(try SQLDatabase(.postgres(url))) { error in
            XCTAssertEqual((error as? SQLError)?.kind, .connectionFailed)
            XCTAssertTrue("\(error)".contains("127.0.0.1:\(port)"), "\(error)")
        }
        let cluster = try PostgresCluster.shared()
        XCTAssertThrowsError(try SQLDatabase(.postgres(cluster.url(database: "no_such_database")))) { error in
            XCTAssertEqual((error as? SQLError)?.kind, .connectionFailed)
            XCTAssertTrue("\(error)".contains("no_such_database"), "\(error)")
        }
    }

    func testAStoppedServerFailsFastWithBackoffAndIsUsedAgainOnceItIsBack() throws {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        let cluster = try PostgresCluster.start()
        defer { try? cluster.stopServer() }
        let url = try cluster.createDatabase()
        var options = SQLDatabaseOptions()
        options.reconnectBackoff = SQLBackoff(initial: .milliseconds(100), maximum: .milliseconds(400))
        let db = try SQLDatabase(.postgres(url), options: options)
        try db.withConnection { try $0.execute("CREATE TABLE kept (n INTEGER)") }
        try db.run("INSERT INTO kept VALUES (1)")

        try cluster.stopServer()
        let failuresBefore = db.statistics.connectFailures
        let started = ContinuousClock.now
        var errors: [SQLError] = []
        while ContinuousClock.now - started < .milliseconds(600) {
            do {
                try db.ping()
                XCTFail("the server is stopped")
            } catch let error as SQLError {
                errors.append(error)
            }
        }
        XCTAssertGreaterThan(errors.count, 20, "callers fail at once instead of hanging")
        XCTAssertTrue(errors.allSatisfy { $0.kind == .connectionFailed || $0.kind == .connectionLost }, "\(Set(errors.map(\.kind)))")
        XCTAssertTrue(errors.last!.message.contains("127.0.0.1:\(cluster.port)"), errors.last!.message)
        let attempts = db.statistics.connectFailures - failuresBefore
        XCTAssertGreaterThanOrEqual(attempts, 2)
        XCTAssertLessThanOrEqual(attempts, 8, "attempts are spaced by the backoff, not one per call")

        try cluster.startServer()
        try waitUntil(timeout: .seconds(60)) { (try? db.ping()) != nil }
        XCTAssertEqual(try db.scalar("SELECT n FROM kept", as: Int.self), 1)
    }
}

/// Polls `condition` every 10 ms until it holds; fails the test after `timeout`.
func waitUntil(timeout: Duration = .seconds(30), _ condition: () throws -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return }
        Thread.sleep(forTimeInterval: 0.01)
    }
    XCTFail("the condition did not hold within \(timeout)", file: file, line: line)
}

/// A loopback port nothing listens on.
func unusedPort() throws -> Int {
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
