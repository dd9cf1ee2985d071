import Foundation
import SQLTesting
import XCTest
@testable import SQL

final class SQLAdvisoryLockTests: XCTestCase {
    func testALockIsHeldByOneHolderAtATimeAcrossReplicas() throws {
        try SQLTestDatabase.forEachEngine { place in
            let replicaA = try place.open()
            let replicaB = try place.open()
            let build = SQLLockKey("pyramid-build", 7)
            let lock = try XCTUnwrap(replicaA.tryLock(build), "\(place.engine)")
            XCTAssertTrue(lock.isHeld)
            XCTAssertNil(try replicaB.tryLock(build), "\(place.engine): another replica cannot take it")
            XCTAssertNil(try replicaA.tryLock(build), "nor this process a second time")
            let other = try XCTUnwrap(replicaB.tryLock(SQLLockKey("pyramid-build", 8)), "other keys are independent")
            lock.release()
            XCTAssertFalse(lock.isHeld)
            let taken = try XCTUnwrap(replicaB.tryLock(build), "released, so the other replica gets it")
            lock.release() // a second release of the old lock must not free the new holder's
            XCTAssertNil(try replicaA.tryLock(build))
            XCTAssertTrue(taken.isHeld)
            taken.release()
            other.release()
        }
    }

    func testAPostgreSQLLockGoesWithItsSession() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        var options = SQLDatabaseOptions()
        options.postgres.applicationName = "dying-replica"
        let dying = try place.open(options: options)
        let survivor = try place.open()
        let key = SQLLockKey("folder-scan", 0)
        let lock = try XCTUnwrap(dying.tryLock(key))
        XCTAssertNil(try survivor.tryLock(key))
        try place.cluster!.terminateSessions(database: place.name, application: "dying-replica")
        try waitUntil { (try? survivor.tryLock(key)).flatMap { $0 }.map { taken in defer { taken.release() }; return true } ?? false }
        XCTAssertFalse(lock.isHeld, "the holder learns its lock is gone")
        XCTAssertNotNil(try dying.tryLock(SQLLockKey("folder-scan", 1)), "and can take locks again on a new session")
    }

    func testASQLiteLockExcludesAnotherProcessAndGoesWhenThatProcessDies() throws {
        let place = try SQLTestDatabase.sqlite()
        defer { place.remove() }
        let db = try place.open()
        let key = SQLLockKey("pyramid-build", 3)
        guard case .sqlite(let path) = place.location else { return XCTFail() }
        let offset = UInt64(bitPattern: key.value) >> 2

        // Another process takes the byte with a POSIX record lock, which conflicts with ours.
        let other = try LockingProcess(path: path + "-locks", offset: offset)
        XCTAssertEqual(other.readLine(), "locked")
        XCTAssertNil(try db.tryLock(key), "held by the other process")
        other.kill()
        let lock = try XCTUnwrap(db.tryLock(key), "the kernel released it when the process died")

        let blocked = try LockingProcess(path: path + "-locks", offset: offset)
        XCTAssertEqual(blocked.readLine(), "busy", "and now we exclude the other process")
        blocked.kill()
        lock.release()
    }
}
