import Dispatch
import Observability

/// One listener's catch-up, a page at a time and only as fast as its client reads: a page is
/// read and written, and the next one waits until the connection has sent (nearly) all of it.
/// So a stream costs the same small memory whether it missed three comments or three thousand,
/// where the whole replay used to be read and queued at once (49 MB for 3 000 long comments).
// @unchecked Sendable: one step at a time: each step is scheduled only after the previous one's page has been written.
final class CommentReplay: @unchecked Sendable {
    /// Comments per page: 50 of the longest (2 000 characters, escaped) stay under a megabyte.
    static let pageSize = 50
    /// Deletion frames per page; each is a few dozen bytes.
    static let deletionsPerPage = 500

    private let listener: CommentListener
    private let source: CommentReplaySource
    private let logger: Logger
    // Touched by one page at a time: each page runs only after the one before has been written.
    private var cursor: Int
    private var deletions: [Int]?
    private var deletionsSent = 0

    init(listener: CommentListener, after lastEventID: Int, source: CommentReplaySource, logger: Logger) {
        self.listener = listener
        self.source = source
        self.logger = logger
        self.cursor = lastEventID
    }

    /// Starts the replay off the calling thread (which may be an event loop).
    func start() {
        DispatchQueue.global().async { self.step() }
    }

    private func step() {
        guard !listener.stream.isClosed else { return }
        do {
            if deletions == nil { deletions = try source.deletedIDs(cursor) }
            if let deletions, deletionsSent < deletions.count {
                let end = min(deletions.count, deletionsSent + Self.deletionsPerPage)
                listener.sendReplay(deletions[deletionsSent..<end].map { .deleted(photoID: listener.photoID, commentID: $0) })
                deletionsSent = end
                return waitForTheClient()
            }
            let page = try source.page(cursor, Self.pageSize)
            listener.sendReplay(page.map { .added($0) })
            if let last = page.last { cursor = last.id }
            if page.count == Self.pageSize { return waitForTheClient() }
            listener.finishCatchUp()
        } catch {
            logger.error("replaying comments failed", [("photo", String(listener.photoID)), ("error", "\(error)")])
            listener.stream.close() // the browser reconnects with the same Last-Event-ID
        }
    }

    private func waitForTheClient() {
        listener.stream.whenDrained { [self] in DispatchQueue.global().async { self.step() } }
    }
}
