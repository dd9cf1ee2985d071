import Foundation
import Synchronization
import XCTest
import SQLTesting
@testable import Comments

final class GroupCommitTests: XCTestCase {
    func testConcurrentSubmissionsShareCommitsAndEachGetsItsOwnOutput() {
        let batches = Mutex<[[Int]]>([])
        let group = GroupCommit<Int, Int> { items in
            usleep(2_000) // an fsync's worth of time, so submissions pile up behind the leader
            batches.withLock { $0.append(items) }
            return items.map { $0 * 10 }
        }
        let outputs = Mutex<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            let output = try? group.submit(i)
            outputs.withLock { $0[i] = output }
        }
        let seen = batches.withLock { $0 }
        XCTAssertEqual(outputs.withLock { $0 }.count, 200)
        XCTAssertTrue(outputs.withLock { $0 }.allSatisfy { $0.value == $0.key * 10 }, "each caller gets its own item's output")
        XCTAssertEqual(seen.flatMap { $0 }.sorted(), Array(0..<200), "every item committed exactly once")
        XCTAssertLessThan(seen.count, 200, "some commits carried more than one item")
    }

    func testAFailedCommitFailsEveryItemInItsBatchAndLaterBatchesStillRun() {
        struct Full: Error {}
        let calls = Mutex(0)
        let group = GroupCommit<Int, Int> { items in
            let call = calls.withLock { $0 += 1; return $0 }
            if call == 1 { throw Full() }
            return items
        }
        XCTAssertThrowsError(try group.submit(1)) { XCTAssertTrue($0 is Full) }
        XCTAssertEqual(try group.submit(2), 2)
    }

    func testChangesAreReportedInCommitOrderUnderConcurrentWrites() throws {
        try check(MemoryCommentStore(), "memory")
        try SQLTestDatabase.forEachEngine { place in
            try check(try SQLCommentStore(database: try place.open(), ownsDatabase: true), place.engine.rawValue)
        }
    }

    private func check(_ store: CommentStore, _ name: String) throws {
        defer { store.close() }
        let reported = Mutex<[Int]>([])
        store.onChange { event in
            if case .added(let comment) = event { reported.withLock { $0.append(comment.id) } }
        }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<20 { _ = try? store.add(photoID: 1, author: "w\(worker)", text: "\(i)", client: "c") }
        }
        if let sql = store as? SQLCommentStore { XCTAssertTrue(sql.waitForDelivery(), name) }
        let ids = reported.withLock { $0 }
        XCTAssertEqual(ids.count, 160, name)
        XCTAssertEqual(ids, ids.sorted(), "ids reach listeners in increasing order (\(name))")
    }
}
