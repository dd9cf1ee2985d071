import Foundation
import Synchronization

/// A comment store in memory, for unit tests and tools: same behaviour as the SQL store, no durability.
public final class MemoryCommentStore: CommentStore {
    private struct State {
        var nextID = 1
        /// Every comment in id order, so listing is a filter over an already sorted array.
        var comments: [Comment] = []
        var counts: [Int: Int] = [:]
        var clients: [Int: String] = [:]
        var deleted: [Int: [Int]] = [:]
        var closed = false
        var handlers: [@Sendable (CommentEvent) -> Void] = []
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    /// `now` gives creation times; inject a fixed clock in tests.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    // MARK: CommentStore (each requirement is documented on the protocol)

    public func add(photoID: Int, author: String, text: String, client: String, verified: Bool) throws -> Comment {
        let createdAt = now()
        return try state.withLock { state in
            guard !state.closed else { throw CommentStoreError.closed }
            let comment = Comment(id: state.nextID, photoID: photoID, author: author, text: text, createdAt: createdAt,
                                  verified: verified)
            state.nextID += 1
            state.comments.append(comment)
            state.counts[photoID, default: 0] += 1
            state.clients[comment.id] = client
            state.handlers.forEach { $0(.added(comment)) }
            return comment
        }
    }

    public func list(photoID: Int, after: Int?, limit: Int) throws -> [Comment] {
        try state.withLock { state in
            guard !state.closed else { throw CommentStoreError.closed }
            let cursor = after ?? 0
            return Array(state.comments.lazy.filter { $0.photoID == photoID && $0.id > cursor }.prefix(max(0, limit)))
        }
    }

    public func comment(photoID: Int, id: Int) throws -> Comment? {
        try state.withLock { state in
            guard !state.closed else { throw CommentStoreError.closed }
            return state.comments.first { $0.id == id && $0.photoID == photoID }
        }
    }

    public func count(photoID: Int) -> Int {
        state.withLock { $0.counts[photoID] ?? 0 }
    }

    public func delete(photoID: Int, commentID: Int, client: String) throws -> Bool {
        try state.withLock { state in
            guard !state.closed else { throw CommentStoreError.closed }
            guard let index = state.comments.firstIndex(where: { $0.id == commentID && $0.photoID == photoID }) else {
                return false
            }
            state.comments.remove(at: index)
            state.counts[photoID, default: 1] -= 1
            state.clients[commentID] = nil
            state.deleted[photoID, default: []].append(commentID)
            state.handlers.forEach { $0(.deleted(photoID: photoID, commentID: commentID)) }
            return true
        }
    }

    public func deletedIDs(photoID: Int, through lastID: Int) throws -> [Int] {
        try state.withLock { state in
            guard !state.closed else { throw CommentStoreError.closed }
            return (state.deleted[photoID] ?? []).filter { $0 <= lastID }.sorted()
        }
    }

    public func onChange(_ handler: @escaping @Sendable (CommentEvent) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    public func close() {
        state.withLock { $0.closed = true }
    }
}
