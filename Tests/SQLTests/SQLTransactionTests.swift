import Dispatch
import Foundation
import SQLTesting
import Synchronization
import XCTest
@testable import SQL

final class SQLTransactionTests: XCTestCase {
    private func makeTable(_ db: SQLDatabase) throws {
        try db.withConnection { try $0.execute("CREATE TABLE entries (id \(db.dialect.generatedPrimaryKey), n \(db.dialect.bigint) NOT NULL)") }
    }

    private func count(_ db: SQLDatabase) throws -> Int { try db.scalar("SELECT count(*) FROM entries", as: Int.self) ?? -1 }

    func testATransactionCommitsWhenItsBodyReturnsAndRollsBackWhenItThrows() throws {
        struct Refused: Error {}
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try makeTable(db)
            let id = try db.transaction { tx in
                try tx.run("INSERT INTO entries (n) VALUES (\(1))")
                return try tx.scalar("INSERT INTO entries (n) VALUES (\(2)) RETURNING id", as: Int.self)!
            }
            XCTAssertGreaterThan(id, 0)
            XCTAssertThrowsError(try db.transaction { tx in
                try tx.run("INSERT INTO entries (n) VALUES (\(3))")
                throw Refused()
            }) { XCTAssertTrue($0 is Refused, "the body's own error comes out") }
            XCTAssertEqual(try count(db), 2, "\(place.engine): the throwing body's insert is gone")
            XCTAssertThrowsError(try db.withConnection { c in try c.transaction { _ in try c.transaction { _ in } } }) {
                XCTAssertEqual(($0 as? SQLError)?.kind, .misuse, "no nesting")
            }
        }
    }

    func testARebuildableTransactionCommitsWithoutWaitingForTheDiskOnlyUntilItEnds() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            try makeTable(db)
            try db.withConnection { connection in
                // The tests' cluster runs without waiting for the disk at all; this session waits.
                if place.engine == .postgres { try connection.execute("SET synchronous_commit TO on") }
                let inside = try connection.transaction(.rebuildable) { tx -> String? in
                    try tx.run("INSERT INTO entries (n) VALUES (\(1))")
                    return place.engine == .postgres ? try tx.scalar("SELECT current_setting('synchronous_commit')", as: String.self) : nil
                }
                guard place.engine == .postgres else { return }
                XCTAssertEqual(inside, "off", "its COMMIT does not wait for the log to reach the disk")
                XCTAssertEqual(try connection.scalar("SELECT current_setting('synchronous_commit')", as: String.self), "on",
                               "the next borrower of the connection waits again")
                let plain = try connection.transaction { try $0.scalar("SELECT current_setting('synchronous_commit')", as: String.self) }
                XCTAssertEqual(plain, "on", "a plain write transaction waits")
            }
            XCTAssertEqual(try count(db), 1, "\(place.engine): committed")
            XCTAssertThrowsError(try db.transaction(.rebuildable) { tx in
                try tx.run("INSERT INTO entries (n) VALUES (\(2))")
                throw SQLError(.other, message: "refused")
            })
            XCTAssertEqual(try count(db), 1, "\(place.engine): a rebuildable transaction that throws rolls back")
        }
    }

    func testAFailedStatementInsideAPostgreSQLTransactionIsNotCommittedSilently() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        let db = try place.open()
        try makeTable(db)
        XCTAssertThrowsError(try db.transaction { tx in
            try tx.run("INSERT INTO entries (n) VALUES (\(1))")
            _ = try? tx.run("SELECT * FROM missing_table") // swallowed by the body
        }) { error in
            XCTAssertEqual((error as? SQLError)?.kind, .misuse, "\(error)")
        }
        XCTAssertEqual(try count(db), 0)
    }

    func testASerializationFailureRunsTheTransactionAgain() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        let db = try place.open()
        try makeTable(db)
        let firstRead = DispatchSemaphore(value: 0)
        let otherCommitted = DispatchSemaphore(value: 0)
        let attempts = Atomic(0)
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Int, any Error>?>(nil)
        Thread.detachNewThread {
            let outcome = Result { () throws -> Int in
                try db.transaction(.serializable) { tx in
                    let attempt = attempts.add(1, ordering: .relaxed).newValue
                    let sum = try tx.scalar("SELECT coalesce(sum(n), 0) FROM entries", as: Int.self)!
                    if attempt == 1 {
                        firstRead.signal()
                        otherCommitted.wait()
                    }
                    try tx.run("INSERT INTO entries (n) VALUES (\(sum + 10))")
                    return attempt
                }
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        firstRead.wait()
        // Write skew: both read the sum, both insert; serializable isolation fails one of them.
        try db.transaction(.serializable) { tx in
            let sum = try tx.scalar("SELECT coalesce(sum(n), 0) FROM entries", as: Int.self)!
            try tx.run("INSERT INTO entries (n) VALUES (\(sum + 1))")
        }
        otherCommitted.signal()
        done.wait()
        XCTAssertEqual(try result.withLock { try $0!.get() }, 2, "the second run committed")
        XCTAssertEqual(try db.query("SELECT n FROM entries ORDER BY id").map { try $0.decode(0, as: Int.self) }, [1, 11],
                       "the retry saw the other transaction's row")
    }

    func testABusySQLiteWriterIsRetriedUntilTheLockFreesAndFailsWithoutRetries() throws {
        let place = try SQLTestDatabase.sqlite()
        defer { place.remove() }
        let holder = try place.open()
        try makeTable(holder)
        var options = SQLDatabaseOptions()
        options.sqlite.busyTimeoutMilliseconds = 20
        options.transactionRetry = .never
        let impatient = try place.open(options: options)
        // Retries for far longer than the holder keeps its lock, however late a loaded machine releases it.
        options.transactionRetry = SQLRetryPolicy(attempts: 1000, backoff: SQLBackoff(initial: .milliseconds(5), maximum: .milliseconds(20)))
        let patient = try place.open(options: options)

        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? holder.transaction { tx in
                try tx.run("INSERT INTO entries (n) VALUES (\(1))")
                locked.signal()
                release.wait()
            }
            finished.signal()
        }
        locked.wait()
        XCTAssertThrowsError(try impatient.transaction { try $0.run("INSERT INTO entries (n) VALUES (\(2))") }) { error in
            XCTAssertEqual((error as? SQLError)?.kind, .busy, "\(error)")
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { release.signal() }
        _ = try patient.transaction { try $0.run("INSERT INTO entries (n) VALUES (\(3))") }
        finished.wait()
        XCTAssertEqual(try holder.query("SELECT n FROM entries ORDER BY id").map { try $0.decode(0, as: Int.self) }, [1, 3])
    }

    func testAConnectionLostBeforeCommitIsRetriedOnAFreshConnection() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        var options = SQLDatabaseOptions()
        options.postgres.applicationName = "retry-test"
        let db = try place.open(options: options)
        try makeTable(db)
        let attempts = Atomic(0)
        try db.transaction { tx in
            try tx.run("INSERT INTO entries (n) VALUES (\(1))")
            if attempts.add(1, ordering: .relaxed).newValue == 1 {
                // The server ends this very session mid-transaction, as a failover or restart would.
                XCTAssertEqual(try place.cluster!.terminateSessions(database: place.name, application: "retry-test"), 1)
            }
            try tx.run("INSERT INTO entries (n) VALUES (\(2))")
        }
        XCTAssertEqual(attempts.load(ordering: .relaxed), 2)
        XCTAssertEqual(try count(db), 2, "the first run's insert was rolled back by the server, the second committed")
    }
}
