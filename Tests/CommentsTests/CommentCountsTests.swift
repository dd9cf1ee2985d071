import Foundation
import SQL
import SQLTesting
import XCTest
@testable import Comments

/// The in-memory counts must never go back to a value read before a change they already show.
final class CommentCountsTests: XCTestCase {
    /// Runs `body` on each engine with a fresh store whose photo 1 has two comments (its count
    /// read once, so it is known) and photo 2 one; `body` gets the store, the first comment of
    /// photo 1 and the engine's name.
    private func withTwoCommentsOnPhotoOne(_ body: (SQLCommentStore, Comment, String) throws -> Void) throws {
        try SQLTestDatabase.forEachEngine { place in
            let name = place.engine.rawValue
            let store = try SQLCommentStore(database: try place.open(), ownsDatabase: true)
            defer { store.close() }
            let first = try store.add(photoID: 1, author: "a", text: "one", client: "c")
            _ = try store.add(photoID: 1, author: "a", text: "two", client: "c")
            _ = try store.add(photoID: 2, author: "a", text: "three", client: "c")
            XCTAssertEqual(store.count(photoID: 1), 2, name)
            try body(store, first, name)
        }
    }

    /// A reading of every count (as the change feed makes when it connects) can begin before a
    /// delete and end after the deleted photo's count was read again. Taking that older reading
    /// in would put the deleted comment back in the count, and nothing would ever correct it.
    func testAReadingThatBeganBeforeAChangeDoesNotUndoANewerCount() throws {
        try withTwoCommentsOnPhotoOne { store, first, name in
            let readingBegan = store.counts.currentChange
            let readBeforeTheDelete = [1: 2, 2: 1]
            XCTAssertTrue(try store.delete(photoID: 1, commentID: first.id), name)
            XCTAssertEqual(store.count(photoID: 1), 1, "the delete is seen at once (\(name))")

            let applied = store.counts.apply(readBeforeTheDelete, readAt: readingBegan)
            XCTAssertEqual(applied[1], 1, "the newer count is kept (\(name))")
            XCTAssertEqual(store.count(photoID: 1), 1, "the older reading does not undo the delete (\(name))")
            XCTAssertEqual(store.count(photoID: 2), 1, name)
        }
    }

    /// An older reading that ends before the changed photo was read again leaves it stale, so
    /// its next read asks the database.
    func testAReadingThatBeganBeforeAnUnreadChangeLeavesThatCountStale() throws {
        try withTwoCommentsOnPhotoOne { store, first, name in
            let readingBegan = store.counts.currentChange
            XCTAssertTrue(try store.delete(photoID: 1, commentID: first.id), name)
            _ = store.counts.apply([1: 2, 2: 1], readAt: readingBegan)
            XCTAssertEqual(store.count(photoID: 1), 1, "the delete is still seen (\(name))")
        }
    }
}
