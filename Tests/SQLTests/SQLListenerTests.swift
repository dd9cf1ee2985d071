import Dispatch
import Foundation
import SQLTesting
import Synchronization
import XCTest
@testable import SQL

final class SQLListenerTests: XCTestCase {
    func testCommittedNotificationsArriveInOrderAndRolledBackOnesNever() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            let events = ListenerEvents()
            let listener = try db.listen(["comments"], handler: events.handler)
            defer { listener.stop() }
            XCTAssertEqual(events.next(), .connected(reconnect: false), "\(place.engine)")

            try db.notify(channel: "comments", payload: "outside")
            try db.notify(channel: "elsewhere", payload: "not listened to")
            struct Abort: Error {}
            try? db.transaction { tx in
                try tx.notify(channel: "comments", payload: "rolled back")
                throw Abort()
            }
            try db.transaction { tx in
                try tx.notify(channel: "comments", payload: "first of two")
                try tx.notify(channel: "comments", payload: "second of two")
            }
            XCTAssertEqual(events.nextPayload(), "outside")
            XCTAssertEqual(events.nextPayload(), "first of two", "\(place.engine): the rolled-back one is never sent")
            XCTAssertEqual(events.nextPayload(), "second of two")
            XCTAssertNil(events.next(timeout: 0.2), "nothing else")
        }
    }

    func testANotificationInsideATransactionWaitsForTheCommit() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            let events = ListenerEvents()
            let listener = try db.listen(["c"], handler: events.handler)
            defer { listener.stop() }
            XCTAssertEqual(events.next(), .connected(reconnect: false))
            try db.transaction { tx in
                try tx.notify(channel: "c", payload: "1")
                XCTAssertNil(events.next(timeout: 0.2), "\(place.engine): not before COMMIT")
            }
            XCTAssertEqual(events.nextPayload(), "1")
        }
    }

    /// The listener's own wake-up (its keep-alive) is ten minutes away, so a notification heard
    /// within the test's wait was read as it arrived, not on an interval.
    func testAnotherReplicasCommitReachesThisOne() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        var options = SQLDatabaseOptions()
        options.listenerKeepAlive = .seconds(600)
        let replicaA = try place.open()
        let replicaB = try place.open(options: options)
        let events = ListenerEvents()
        let listener = try replicaB.listen(["comments"], handler: events.handler)
        defer { listener.stop() }
        XCTAssertEqual(events.next(), .connected(reconnect: false))
        try replicaA.notify(channel: "comments", payload: "17")
        XCTAssertEqual(events.nextPayload(timeout: 30), "17", "not delivered as it arrived")
    }

    func testAListenerWhoseSessionEndsReconnectsAndSaysSo() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        var options = SQLDatabaseOptions()
        options.postgres.applicationName = "listener-test"
        options.reconnectBackoff = SQLBackoff(initial: .milliseconds(20), maximum: .milliseconds(100))
        let db = try place.open(options: options)
        let events = ListenerEvents()
        let listener = try db.listen(["comments"], handler: events.handler)
        defer { listener.stop() }
        XCTAssertEqual(events.next(), .connected(reconnect: false))
        XCTAssertEqual(try place.cluster!.terminateSessions(database: place.name, application: "listener-test-listener"), 1)
        guard case .disconnected(let error)? = events.next() else { return XCTFail("the loss is reported") }
        XCTAssertEqual(error.kind, .connectionLost, "\(error)")
        XCTAssertEqual(events.next(), .connected(reconnect: true), "the caller is told to catch up")
        try db.notify(channel: "comments", payload: "after")
        XCTAssertEqual(events.nextPayload(), "after")
    }

    func testAListenerStartedWhileTheServerIsDownConnectsWhenItComesUp() throws {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        let cluster = try PostgresCluster.start()
        defer { try? cluster.stopServer() }
        let url = try cluster.createDatabase()
        var options = SQLDatabaseOptions()
        options.reconnectBackoff = SQLBackoff(initial: .milliseconds(20), maximum: .milliseconds(100))
        options.listenerKeepAlive = .milliseconds(200)
        let db = try SQLDatabase(.postgres(url), options: options)
        let events = ListenerEvents()
        let listener = try db.listen(["c"], handler: events.handler)
        defer { listener.stop() }
        XCTAssertEqual(events.next(), .connected(reconnect: false))
        try cluster.stopServer()
        guard case .disconnected? = events.next() else { return XCTFail("a stopped server is noticed") }
        try cluster.startServer()
        XCTAssertEqual(events.next(timeout: 10), .connected(reconnect: true))
        try waitUntil { (try? db.notify(channel: "c", payload: "back")) != nil }
        XCTAssertEqual(events.nextPayload(), "back")
    }

    func testAStoppedListenerHearsNothingMore() throws {
        try SQLTestDatabase.forEachEngine { place in
            let db = try place.open()
            let events = ListenerEvents()
            let listener = try db.listen(["c"], handler: events.handler)
            XCTAssertEqual(events.next(), .connected(reconnect: false))
            listener.stop()
            try db.notify(channel: "c", payload: "late")
            XCTAssertNil(events.next(timeout: 0.3), "\(place.engine)")
        }
    }
}
