import Foundation
import Observability
import SQL
import Synchronization

/// Comments in a SQL database, SQLite or PostgreSQL, durable once `add` returns.
///
/// - A comment is returned (and so acknowledged) only after its transaction has committed:
///   SQLite with `synchronous=FULL` fsyncs the WAL, PostgreSQL flushes its WAL at COMMIT.
/// - Group commit: posts that arrive together are inserted in one transaction, so one flush
///   covers them all (see `GroupCommit`); each caller still returns only after its own row is in.
/// - Ids follow commit order, on both engines: SQLite has one writer at a time, and on
///   PostgreSQL each insert takes a transaction-level advisory lock before its ids are drawn,
///   so a transaction that draws later ids also commits later, whichever replica runs it. Live
///   listeners rely on this: they resume from the last id they saw (see `CommentFeed`).
/// - Every change sends a notification in its own transaction; each process (each replica,
///   for PostgreSQL) turns those into `onChange` events and keeps its counts current by them.
public final class SQLCommentStore: CommentStore, PhotoIdentityMap, Sendable {
    /// The database the comments live in.
    public let database: SQLDatabase
    private let ownsDatabase: Bool
    private let now: @Sendable () -> Date
    private let closed = Atomic(false)
    let counts: CommentCounts
    let feed: CommentFeed
    private let inserts: GroupCommit<PendingComment, Comment>

    struct PendingComment: Sendable {
        var photoID: Int
        var author: String
        var text: String
        var client: String
        var createdAt: Date
        var verified: Bool
    }

    /// The notification channel of comment changes.
    static let channel = "photoscroll_comments"
    /// Held by each inserting transaction on PostgreSQL, so ids are drawn in commit order.
    static let idOrderLock = SQLLockKey("comment-ids", 0)

    /// Opens the comments in `database`, bringing their schema up to date. With `metrics`,
    /// records `photoscroll_comment_commit_seconds` and `photoscroll_comment_commit_batch_size`.
    /// The database stays open when the store closes unless `ownsDatabase`.
    public init(database: SQLDatabase, ownsDatabase: Bool = false, metrics: MetricsRegistry? = nil, logger: Logger = .disabled,
                now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.database = database
        self.ownsDatabase = ownsDatabase
        self.now = now
        try database.migrate(CommentSchema.schema)
        let commitSeconds = metrics?.histogram("photoscroll_comment_commit_seconds",
                                               help: "Time to insert and durably commit one batch of comments.")
        let commitBatchSize = metrics?.histogram("photoscroll_comment_commit_batch_size",
                                                 help: "Comments made durable by one commit (group commit).",
                                                 buckets: [1, 2, 4, 8, 16, 32, 64])
        let counts = CommentCounts(database: database)
        try counts.reloadAll()
        self.counts = counts
        inserts = GroupCommit { batch in
            let started = ContinuousClock.now
            let comments = try Self.insert(batch, into: database)
            commitSeconds?.observe((ContinuousClock.now - started).inSeconds)
            commitBatchSize?.observe(Double(comments.count))
            // Before anyone is answered: a photo read right after its 201 shows the new count.
            for photoID in Set(comments.map(\.photoID)) { counts.invalidate(photoID) }
            return comments
        }
        feed = try CommentFeed(database: database, channel: Self.channel, counts: counts, logger: logger, metrics: metrics)
    }

    /// Opens (creating when missing) the comments in the SQLite file at `path`.
    public convenience init(path: String, metrics: MetricsRegistry? = nil, logger: Logger = .disabled,
                            now: @escaping @Sendable () -> Date = { Date() }) throws {
        let database = try SQLDatabase(.sqlite(path: path), logger: logger)
        do {
            try self.init(database: database, ownsDatabase: true, metrics: metrics, logger: logger, now: now)
        } catch {
            database.close()
            throw error
        }
    }

    deinit { close() }

    /// The schema version the database is at.
    public var schemaVersion: Int {
        get throws {
            (try database.scalar("SELECT MAX(version) FROM schema_migrations WHERE schema_name = \(CommentSchema.schema.name)",
                                 as: Int?.self) ?? nil) ?? 0
        }
    }

    /// SQLite's own check of the whole file: `["ok"]` when sound, otherwise the problems it
    /// found. PostgreSQL checks its pages itself; there it answers `["ok"]`.
    public func integrityCheck() throws -> [String] {
        guard database.engine == .sqlite else { return ["ok"] }
        return try database.query("PRAGMA integrity_check").map { try $0.decode(0, as: String.self) }
    }

    /// Whether every other replica's changes are being heard, so counts and live events are
    /// current: false while the database's listening connection is down.
    public var isReachable: Bool { feed.isConnected }

    // MARK: CommentStore (each requirement is documented on the protocol)

    public func add(photoID: Int, author: String, text: String, client: String, verified: Bool) throws -> Comment {
        try checkOpen()
        return try inserts.submit(PendingComment(photoID: photoID, author: author, text: text, client: client, createdAt: now(),
                                                 verified: verified))
    }

    /// Inserts a batch in one transaction, so one flush makes all of it durable.
    private static func insert(_ batch: [PendingComment], into database: SQLDatabase) throws -> [Comment] {
        try database.transaction(.write) { tx in
            if tx.engine == .postgres { _ = try tx.query("SELECT pg_advisory_xact_lock(\(idOrderLock.value))") }
            var comments: [Comment] = []
            for item in batch {
                let createdAt = Int(item.createdAt.timeIntervalSince1970)
                guard let id = try tx.scalar("""
                    INSERT INTO comments (photo_id, author, text, created_at, client, verified)
                    VALUES (\(item.photoID), \(item.author), \(item.text), \(createdAt), \(item.client), \(item.verified)) RETURNING id
                    """, as: Int.self) else {
                    throw SQLError(.other, message: "the insert returned no id")
                }
                comments.append(Comment(id: id, photoID: item.photoID, author: item.author, text: item.text, createdAt: item.createdAt,
                                        verified: item.verified))
            }
            try tx.notify(channel: channel, payload: CommentChange.added(through: comments.last?.id ?? 0).payload)
            return comments
        }
    }

    public func list(photoID: Int, after: Int?, limit: Int) throws -> [Comment] {
        try checkOpen()
        return try database.query("""
            SELECT \(raw: Comment.columns) FROM comments
            WHERE photo_id = \(photoID) AND id > \(after ?? 0) ORDER BY id LIMIT \(max(0, limit))
            """, as: Comment.self)
    }

    public func comment(photoID: Int, id: Int) throws -> Comment? {
        try checkOpen()
        return try database.query("""
            SELECT \(raw: Comment.columns) FROM comments WHERE id = \(id) AND photo_id = \(photoID)
            """, as: Comment.self).first
    }

    public func count(photoID: Int) -> Int {
        counts.count(photoID)
    }

    public func delete(photoID: Int, commentID: Int, client: String) throws -> Bool {
        try checkOpen()
        let deletedAt = Int(now().timeIntervalSince1970)
        let removed = try database.transaction(.write) { tx -> Bool in
            guard try tx.run("DELETE FROM comments WHERE id = \(commentID) AND photo_id = \(photoID)") > 0 else { return false }
            try tx.run("""
                INSERT INTO comment_deletions (comment_id, photo_id, client, deleted_at) VALUES (\(commentID), \(photoID), \(client), \(deletedAt))
                ON CONFLICT (comment_id) DO UPDATE SET photo_id = excluded.photo_id, client = excluded.client, deleted_at = excluded.deleted_at
                """)
            try tx.notify(channel: Self.channel, payload: CommentChange.deleted(photoID: photoID, commentID: commentID).payload)
            return true
        }
        if removed { counts.invalidate(photoID) }
        return removed
    }

    public func deletedIDs(photoID: Int, through lastID: Int) throws -> [Int] {
        try checkOpen()
        return try database.query("""
            SELECT comment_id FROM comment_deletions WHERE photo_id = \(photoID) AND comment_id <= \(lastID) ORDER BY comment_id
            """).map { try $0.decode(0, as: Int.self) }
    }

    public func onChange(_ handler: @escaping @Sendable (CommentEvent) -> Void) {
        feed.onChange(handler)
    }

    /// Blocks until every change committed before the call has reached the `onChange`
    /// handlers, or `timeout` passes; true when it has.
    @discardableResult
    public func waitForDelivery(timeout: Duration = .seconds(5)) -> Bool {
        guard let last = try? database.scalar("SELECT MAX(id) FROM comments", as: Int?.self) else { return false }
        return feed.wait(untilDelivered: last ?? 0, timeout: timeout)
    }

    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        feed.stop()
        if ownsDatabase { database.close() }
    }

    func checkOpen() throws {
        if closed.load(ordering: .acquiring) { throw CommentStoreError.closed }
    }
}

extension Comment: SQLRowDecodable {
    /// The columns a comment is read from, in the order `init(row:)` takes them.
    static let columns = "id, photo_id, author, text, created_at, verified"

    /// A row of `Comment.columns`.
    public init(row: SQLRow) throws {
        self.init(id: try row.decode(0), photoID: try row.decode(1), author: try row.decode(2), text: try row.decode(3),
                  createdAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(4, as: Int.self))), verified: try row.decode(5))
    }
}
