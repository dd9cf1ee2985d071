import Comments
import Foundation
import HTTP
import Synchronization
import TestSupport
import XCTest
@testable import App

/// A store that counts the comments it hands out, to see how much of a replay has been read.
final class CountingCommentStore: CommentStore, Sendable {
    let inner = MemoryCommentStore()
    let listed = Atomic<Int>(0)

    func add(photoID: Int, author: String, text: String, client: String, verified: Bool) throws -> Comment {
        try inner.add(photoID: photoID, author: author, text: text, client: client, verified: verified)
    }
    func list(photoID: Int, after: Int?, limit: Int) throws -> [Comment] {
        let page = try inner.list(photoID: photoID, after: after, limit: limit)
        listed.add(page.count, ordering: .relaxed)
        return page
    }
    func comment(photoID: Int, id: Int) throws -> Comment? { try inner.comment(photoID: photoID, id: id) }
    func count(photoID: Int) -> Int { inner.count(photoID: photoID) }
    func delete(photoID: Int, commentID: Int, client: String) throws -> Bool { try inner.delete(photoID: photoID, commentID: commentID, client: client) }
    func deletedIDs(photoID: Int, through lastID: Int) throws -> [Int] { try inner.deletedIDs(photoID: photoID, through: lastID) }
    func onChange(_ handler: @escaping @Sendable (CommentEvent) -> Void) { inner.onChange(handler) }
    func close() { inner.close() }
}
