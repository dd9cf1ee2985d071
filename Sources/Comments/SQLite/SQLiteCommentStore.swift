import Foundation
import Observability
import Synchronization

/// Comments in one SQLite file, durable once `add` returns.
///
/// Settings and why:
/// - WAL journal: readers never wait for the writer and the writer never waits for readers,
///   and a second server process on the same file is safe.
/// - `synchronous=FULL`: every commit is fsynced before it returns, so an acknowledged (201)
///   comment survives a power cut, not just a crash of the process.
/// - One write connection behind a lock (SQLite allows one writer at a time anyway; taking our
///   own lock first keeps threads from spinning on SQLITE_BUSY), and a small pool of read
///   connections so listing never queues behind an fsync.
/// - A busy timeout for the rare case of another process holding the write lock.
/// - Group commit: posts that arrive together are inserted in one transaction, one fsync for all
///   (see `GroupCommit`); each caller still returns only after its own row is durable.
public final class SQLiteCommentStore: CommentStore, @unchecked Sendable {
    /// The database file.
    public let path: String
    let writer: Mutex<SQLiteConnection?>
    private let idleReaders = Mutex<[SQLiteConnection]>([])
    private let closed = Atomic<Bool>(false)
    /// Comments per photo, loaded at open and kept current by this store's own writes.
    let counts: Mutex<[Int: Int]>
    private let now: @Sendable () -> Date
    private let busyTimeoutMilliseconds: Int
    private let handlers = Mutex<[@Sendable (CommentEvent) -> Void]>([])
    /// Time from BEGIN to a durable COMMIT of each batch: the disk's fsync latency shows here first.
    private let commitSeconds: Histogram?
    /// Comments per commit: above 1 when group commit is sharing fsyncs.
    private let commitBatchSize: Histogram?
    private var inserts: GroupCommit<PendingComment, Comment>!

    private struct PendingComment {
        var photoID: Int
        var author: String
        var text: String
        var client: String
        var createdAt: Date
    }

    /// Read connections kept open between queries; more may be opened under load and are then closed.
    static let maxIdleReaders = 4

    /// Opens or creates the store at `path`, bringing its schema up to date. With `metrics`, records
    /// `photoscroll_comment_commit_seconds` and `photoscroll_comment_commit_batch_size`.
    public init(path: String, busyTimeoutMilliseconds: Int = 5_000, metrics: MetricsRegistry? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.path = path
        self.commitSeconds = metrics?.histogram("photoscroll_comment_commit_seconds",
                                                help: "Time to insert and durably commit one batch of comments.")
        self.commitBatchSize = metrics?.histogram("photoscroll_comment_commit_batch_size",
                                                  help: "Comments made durable by one commit (group commit).",
                                                  buckets: [1, 2, 4, 8, 16, 32, 64])
        self.now = now
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let db = try SQLiteConnection(path: path)
        try db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = FULL")
        try CommentSchema.migrate(db)
        var counts: [Int: Int] = [:]
        try db.query("SELECT photo_id, COUNT(*) FROM comments GROUP BY photo_id") { row in
            counts[row.int(0)] = row.int(1)
        }
        self.counts = Mutex(counts)
        self.writer = Mutex(db)
        self.inserts = GroupCommit { [unowned self] batch in try self.insert(batch) }
    }

    deinit { close() }

    /// The schema version of the open file.
    public var schemaVersion: Int {
        get throws { try withReader { try $0.scalar("PRAGMA user_version") ?? 0 } }
    }

    /// SQLite's own check of the whole file: `["ok"]` when sound, otherwise the problems it found.
    public func integrityCheck() throws -> [String] {
        try withReader { db in
            var lines: [String] = []
            try db.query("PRAGMA integrity_check") { lines.append($0.text(0)) }
            return lines
        }
    }

    // MARK: CommentStore (each requirement is documented on the protocol)

    public func add(photoID: Int, author: String, text: String, client: String) throws -> Comment {
        try inserts.submit(PendingComment(photoID: photoID, author: author, text: text, client: client, createdAt: now()))
    }

    /// Inserts a batch in one transaction, so one fsync makes all of it durable.
    private func insert(_ batch: [PendingComment]) throws -> [Comment] {
        try writer.withLock { db in
            guard let db else { throw CommentStoreError.closed }
            let started = DispatchTime.now().uptimeNanoseconds
            try db.execute("BEGIN IMMEDIATE")
            var comments: [Comment] = []
            do {
                for item in batch {
                    try db.run("INSERT INTO comments (photo_id, author, text, created_at, client) VALUES (?, ?, ?, ?, ?)",
                               [.integer(item.photoID), .text(item.author), .text(item.text),
                                .integer(Int(item.createdAt.timeIntervalSince1970)), .text(item.client)])
                    comments.append(Comment(id: db.lastInsertRowID, photoID: item.photoID, author: item.author,
                                            text: item.text, createdAt: item.createdAt))
                }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
            commitSeconds?.observe(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            commitBatchSize?.observe(Double(comments.count))
            counts.withLock { counts in
                for comment in comments { counts[comment.photoID, default: 0] += 1 }
            }
            let handlers = self.handlers.withLock { $0 }
            for comment in comments {
                handlers.forEach { $0(.added(comment)) }
            }
            return comments
        }
    }

    public func list(photoID: Int, after: Int?, limit: Int) throws -> [Comment] {
        try withReader { db in
            var comments: [Comment] = []
            try db.query("SELECT id, photo_id, author, text, created_at FROM comments WHERE photo_id = ? AND id > ? ORDER BY id LIMIT ?",
                         [.integer(photoID), .integer(after ?? 0), .integer(max(0, limit))]) { row in
                comments.append(Self.comment(row))
            }
            return comments
        }
    }

    public func comment(photoID: Int, id: Int) throws -> Comment? {
        try withReader { db in
            var found: Comment?
            try db.query("SELECT id, photo_id, author, text, created_at FROM comments WHERE id = ? AND photo_id = ?",
                         [.integer(id), .integer(photoID)]) { row in
                found = Self.comment(row)
            }
            return found
        }
    }

    public func count(photoID: Int) -> Int {
        counts.withLock { $0[photoID] ?? 0 }
    }

    public func delete(photoID: Int, commentID: Int, client: String) throws -> Bool {
        let deletedAt = Int(now().timeIntervalSince1970)
        return try writer.withLock { db in
            guard let db else { throw CommentStoreError.closed }
            try db.execute("BEGIN IMMEDIATE")
            do {
                let removed = try db.run("DELETE FROM comments WHERE id = ? AND photo_id = ?", [.integer(commentID), .integer(photoID)])
                if removed > 0 {
                    try db.run("INSERT OR REPLACE INTO comment_deletions (comment_id, photo_id, client, deleted_at) VALUES (?, ?, ?, ?)",
                               [.integer(commentID), .integer(photoID), .text(client), .integer(deletedAt)])
                }
                try db.execute("COMMIT")
                if removed > 0 {
                    counts.withLock { $0[photoID, default: 1] -= 1 }
                    handlers.withLock { $0 }.forEach { $0(.deleted(photoID: photoID, commentID: commentID)) }
                }
                return removed > 0
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func deletedIDs(photoID: Int, through lastID: Int) throws -> [Int] {
        try withReader { db in
            var ids: [Int] = []
            try db.query("SELECT comment_id FROM comment_deletions WHERE photo_id = ? AND comment_id <= ? ORDER BY comment_id",
                         [.integer(photoID), .integer(lastID)]) { ids.append($0.int(0)) }
            return ids
        }
    }

    public func onChange(_ handler: @escaping @Sendable (CommentEvent) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        writer.withLock { db in
            db?.close()
            db = nil
        }
        let readers = idleReaders.withLock { readers in
            defer { readers.removeAll() }
            return readers
        }
        readers.forEach { $0.close() }
    }

    /// Runs `body` on a read connection taken from the pool (or opened), then gives it back.
    func withReader<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        guard !closed.load(ordering: .acquiring) else { throw CommentStoreError.closed }
        let db = try idleReaders.withLock { $0.popLast() } ?? openReader()
        defer {
            let kept = idleReaders.withLock { readers -> Bool in
                guard !closed.load(ordering: .acquiring), readers.count < Self.maxIdleReaders else { return false }
                readers.append(db)
                return true
            }
            if !kept { db.close() }
        }
        return try body(db)
    }

    private func openReader() throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, create: false)
        try db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        try db.execute("PRAGMA query_only = 1")
        return db
    }

    private static func comment(_ row: SQLiteRow) -> Comment {
        Comment(id: row.int(0), photoID: row.int(1), author: row.text(2), text: row.text(3),
                createdAt: Date(timeIntervalSince1970: TimeInterval(row.int(4))))
    }
}
