/// Durable storage of comment threads.
///
/// Implementations are safe to call from any thread. `add` returns only once the comment
/// would survive a crash of the process or the machine, so a caller may acknowledge it.
public protocol CommentStore: AnyObject, Sendable {
    /// Stores a comment and returns it with its new id and time. `client` (the poster's
    /// address) is kept for abuse handling and never shown; `verified`: `author` is the account
    /// name of the signed-in person posting it.
    func add(photoID: Int, author: String, text: String, client: String, verified: Bool) throws -> Comment

    /// Up to `limit` comments on a photo with ids greater than `after` (nil: from the start), oldest first.
    func list(photoID: Int, after: Int?, limit: Int) throws -> [Comment]

    /// One comment, or nil when the photo has no comment with that id.
    func comment(photoID: Int, id: Int) throws -> Comment?

    /// Number of comments on a photo; answered from memory (kept current by every committed
    /// change, this process's or another replica's), so cheap enough to call per photo per listing.
    func count(photoID: Int) -> Int

    /// Removes a comment; false when the photo has no comment with that id. `client` is who asked,
    /// kept in the deletion audit.
    func delete(photoID: Int, commentID: Int, client: String) throws -> Bool

    /// Ids of the photo's comments deleted so far with ids up to `lastID`, in id order: what a live
    /// listener that saw comments up to `lastID` may still be showing although they are gone.
    func deletedIDs(photoID: Int, through lastID: Int) throws -> [Int]

    /// Registers `handler` to be told of every committed change, by this process or (for a shared
    /// database) any other, each added comment once and in commit (id) order, on one thread at a
    /// time: it must be quick and must not call back into the store. Live listeners rely on the
    /// order: they resume from the last id seen.
    func onChange(_ handler: @escaping @Sendable (CommentEvent) -> Void)

    /// Whether the store hears every change and can take writes; false while its database
    /// cannot be reached (readiness probes answer 503 then).
    var isReachable: Bool { get }

    /// Releases files and connections; later calls throw `CommentStoreError.closed`.
    func close()
}

extension CommentStore {
    public var isReachable: Bool { true }

    /// Stores a comment under a name its poster typed (not verified).
    public func add(photoID: Int, author: String, text: String, client: String) throws -> Comment {
        try add(photoID: photoID, author: author, text: text, client: client, verified: false)
    }

    /// Removes a comment without naming who asked.
    public func delete(photoID: Int, commentID: Int) throws -> Bool {
        try delete(photoID: photoID, commentID: commentID, client: "")
    }

    /// What a live listener that last saw comment `eventID` missed: deletions of comments it may be
    /// showing, then every newer comment, oldest first.
    public func replay(photoID: Int, after eventID: Int) throws -> [CommentEvent] {
        let deleted = try deletedIDs(photoID: photoID, through: eventID).map { CommentEvent.deleted(photoID: photoID, commentID: $0) }
        return deleted + (try comments(photoID: photoID, after: eventID)).map { .added($0) }
    }

    /// Every comment on a photo with an id greater than `eventID`, oldest first, read in pages:
    /// what a live listener missed while it was away (comment ids are its event ids).
    public func comments(photoID: Int, after eventID: Int, pageSize: Int = 500) throws -> [Comment] {
        var all: [Comment] = []
        var cursor = eventID
        while true {
            let page = try list(photoID: photoID, after: cursor, limit: pageSize)
            all += page
            guard page.count == pageSize, let last = page.last else { return all }
            cursor = last.id
        }
    }
}
