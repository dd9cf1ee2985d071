import Foundation
import SQL
import SQLTesting
import Synchronization
import XCTest
@testable import Comments

/// Behaviour every `CommentStore` must have; each test runs against the SQL store on SQLite and
/// on PostgreSQL, and against the in-memory store.
final class CommentStoreBehaviourTests: XCTestCase {
    private let clock = Date(timeIntervalSince1970: 1_795_948_262) // 2026-11-29T10:31:02Z

    /// Runs `body` once per store, each on a fresh, empty one: the memory store, then the SQL
    /// store on SQLite and on PostgreSQL (skipped, after the others ran, when PostgreSQL is not installed).
    private func forEachStore(_ body: (CommentStore, String) throws -> Void) throws {
        let clock = self.clock
        let memory = MemoryCommentStore(now: { clock })
        defer { memory.close() }
        try body(memory, "memory")
        try SQLTestDatabase.forEachEngine { place in
            let store = try SQLCommentStore(database: try place.open(), ownsDatabase: true, now: { clock })
            defer { store.close() }
            try body(store, place.engine.rawValue)
        }
    }

    func testAddReturnsTheStoredCommentWithIncreasingIDsAndTheClockTime() throws {
        try forEachStore { store, name in
            let first = try store.add(photoID: 3, author: "Ana", text: "Looks like a Pip", client: "127.0.0.1")
            let second = try store.add(photoID: 4, author: "Ben", text: "Pep", client: "127.0.0.1")
            XCTAssertGreaterThan(first.id, 0, name)
            XCTAssertGreaterThan(second.id, first.id, name)
            XCTAssertEqual(first.photoID, 3, name)
            XCTAssertEqual(first.author, "Ana", name)
            XCTAssertEqual(first.text, "Looks like a Pip", name)
            XCTAssertEqual(first.createdAtText, "2026-11-29T10:31:02Z", name)
            XCTAssertEqual(try store.comment(photoID: 3, id: first.id), first, name)
            XCTAssertNil(try store.comment(photoID: 4, id: first.id), "a comment belongs to its photo only (\(name))")
            XCTAssertNil(try store.comment(photoID: 3, id: 999), name)
        }
    }

    func testAVerifiedCommentIsStoredAsVerifiedAndATypedNameIsNot() throws {
        try forEachStore { store, name in
            let typed = try store.add(photoID: 3, author: "Grandma", text: "typed", client: "c")
            let signedIn = try store.add(photoID: 3, author: "ana", text: "signed in", client: "c", verified: true)
            XCTAssertFalse(typed.verified, name)
            XCTAssertTrue(signedIn.verified, name)
            XCTAssertEqual(try store.list(photoID: 3, after: nil, limit: 10).map(\.verified), [false, true], name)
            XCTAssertEqual(try store.comment(photoID: 3, id: signedIn.id), signedIn, name)
            XCTAssertEqual(try store.replay(photoID: 3, after: typed.id), [.added(signedIn)], "live listeners get it as stored (\(name))")
        }
    }

    func testListIsOldestFirstAndOnlyThatPhotos() throws {
        try forEachStore { store, name in
            var expected: [Comment] = []
            for i in 0..<10 {
                let comment = try store.add(photoID: i % 2 == 0 ? 1 : 2, author: "a\(i)", text: "t\(i)", client: "c")
                if i % 2 == 0 { expected.append(comment) }
            }
            XCTAssertEqual(try store.list(photoID: 1, after: nil, limit: 50), expected, name)
            XCTAssertEqual(try store.list(photoID: 9, after: nil, limit: 50), [], name)
        }
    }

    func testPagingWithAfterAndLimitVisitsEveryCommentOnce() throws {
        try forEachStore { store, name in
            let all = try (0..<23).map { try store.add(photoID: 5, author: "x", text: "comment \($0)", client: "c") }
            _ = try store.add(photoID: 6, author: "x", text: "elsewhere", client: "c")
            var seen: [Comment] = []
            var cursor: Int?
            var pages = 0
            while true {
                let page = try store.list(photoID: 5, after: cursor, limit: 5)
                if page.isEmpty { break }
                XCTAssertLessThanOrEqual(page.count, 5, name)
                seen += page
                cursor = page.last!.id
                pages += 1
            }
            XCTAssertEqual(seen, all, name)
            XCTAssertEqual(pages, 5, name)
            XCTAssertEqual(try store.list(photoID: 5, after: all[20].id, limit: 50), Array(all[21...]), name)
            XCTAssertEqual(try store.list(photoID: 5, after: nil, limit: 0), [], name)
            XCTAssertEqual(try store.comments(photoID: 5, after: all[2].id, pageSize: 4), Array(all[3...]),
                           "replay reads every page (\(name))")
        }
    }

    func testCountsFollowAddsAndDeletes() throws {
        try forEachStore { store, name in
            XCTAssertEqual(store.count(photoID: 1), 0, name)
            let a = try store.add(photoID: 1, author: "a", text: "one", client: "c")
            _ = try store.add(photoID: 1, author: "a", text: "two", client: "c")
            _ = try store.add(photoID: 2, author: "a", text: "three", client: "c")
            XCTAssertEqual(store.count(photoID: 1), 2, name)
            XCTAssertEqual(store.count(photoID: 2), 1, name)
            XCTAssertTrue(try store.delete(photoID: 1, commentID: a.id), name)
            XCTAssertEqual(store.count(photoID: 1), 1, name)
            XCTAssertFalse(try store.delete(photoID: 1, commentID: a.id), "a second delete finds nothing (\(name))")
            XCTAssertEqual(store.count(photoID: 1), 1, name)
        }
    }

    func testDeleteRemovesOnlyThatCommentAndIDsAreNeverReused() throws {
        try forEachStore { store, name in
            let a = try store.add(photoID: 1, author: "a", text: "one", client: "c")
            let b = try store.add(photoID: 1, author: "a", text: "two", client: "c")
            XCTAssertFalse(try store.delete(photoID: 2, commentID: b.id), "the photo must match (\(name))")
            XCTAssertTrue(try store.delete(photoID: 1, commentID: b.id), name)
            XCTAssertEqual(try store.list(photoID: 1, after: nil, limit: 10), [a], name)
            XCTAssertNil(try store.comment(photoID: 1, id: b.id), name)
            let c = try store.add(photoID: 1, author: "a", text: "three", client: "c")
            XCTAssertGreaterThan(c.id, b.id, "the largest id is not handed out again after its deletion (\(name))")
        }
    }

    func testReplayHasDeletionsOfWhatTheListenerSawThenNewerComments() throws {
        try forEachStore { store, name in
            let a = try store.add(photoID: 1, author: "a", text: "one", client: "c")
            let b = try store.add(photoID: 1, author: "a", text: "two", client: "c")
            let other = try store.add(photoID: 2, author: "a", text: "elsewhere", client: "c")
            let c = try store.add(photoID: 1, author: "a", text: "three", client: "c")
            let d = try store.add(photoID: 1, author: "a", text: "four", client: "c")
            // The listener saw up to c; then b and d were deleted, and e was posted.
            XCTAssertTrue(try store.delete(photoID: 1, commentID: d.id), name)
            XCTAssertTrue(try store.delete(photoID: 1, commentID: b.id), name)
            XCTAssertTrue(try store.delete(photoID: 2, commentID: other.id), name)
            let e = try store.add(photoID: 1, author: "a", text: "five", client: "c")
            XCTAssertEqual(try store.deletedIDs(photoID: 1, through: c.id), [b.id], name)
            XCTAssertEqual(try store.deletedIDs(photoID: 1, through: d.id), [b.id, d.id], name)
            XCTAssertEqual(try store.replay(photoID: 1, after: c.id), [.deleted(photoID: 1, commentID: b.id), .added(e)],
                           "d is newer than what the listener saw and gone, so it is neither added nor deleted (\(name))")
            XCTAssertEqual(try store.replay(photoID: 1, after: 0), [.added(a), .added(c), .added(e)], name)
        }
    }

    func testTextIsStoredExactlyAsGiven() throws {
        try forEachStore { store, name in
            let text = "<b>not html</b> & \"quotes\" 'single' — ünïcödé 👩‍👩‍👧 \n second line\t tab; DROP TABLE comments; --"
            let stored = try store.add(photoID: 1, author: "Robert'); --", text: text, client: "c")
            XCTAssertEqual(try store.comment(photoID: 1, id: stored.id)?.text, text, name)
            XCTAssertEqual(try store.comment(photoID: 1, id: stored.id)?.author, "Robert'); --", name)
        }
    }

    func testAClosedStoreRefusesWork() throws {
        try forEachStore { store, name in
            store.close()
            XCTAssertThrowsError(try store.add(photoID: 1, author: "a", text: "t", client: "c"), name) { error in
                XCTAssertEqual(error as? CommentStoreError, .closed, name)
            }
            XCTAssertThrowsError(try store.list(photoID: 1, after: nil, limit: 1), name)
        }
    }

    func testConcurrentAddsAreAllStoredWithDistinctIDs() throws {
        try forEachStore { store, name in
            let ids = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for i in 0..<25 {
                    if let comment = try? store.add(photoID: 7, author: "w\(worker)", text: "n\(i)", client: "c") {
                        ids.withLock { $0.append(comment.id) }
                    }
                }
            }
            let stored = ids.withLock { $0 }
            XCTAssertEqual(stored.count, 200, name)
            XCTAssertEqual(Set(stored).count, 200, name)
            XCTAssertEqual(try store.list(photoID: 7, after: nil, limit: 500).map(\.id), stored.sorted(), name)
            XCTAssertEqual(store.count(photoID: 7), 200, name)
        }
    }
}
