import Dispatch
import Observability
import Synchronization

/// One listener's catch-up, a page at a time and only as fast as its client reads: a page is
/// read and written, and the next one waits until the connection has sent (nearly) all of it.
/// So a stream costs the same small memory whether it missed three comments or three thousand,
/// where the whole replay used to be read and queued at once (49 MB for 3 000 long comments).
final class CommentReplay: Sendable {
    /// Comments per page: 50 of the longest (2 000 characters, escaped) stay under a megabyte.
    static let pageSize = 50
    /// Deletion frames per page; each is a few dozen bytes.
    static let deletionsPerPage = 500

    private let listener: CommentListener
    private let source: CommentReplaySource
    private let logger: Logger
    /// Where the replay stands. Held for a whole step, though steps never overlap: each page
    /// runs only after the one before has been written.
    private struct State {
        var cursor: Int
        var deletions: [Int]?
        var deletionsSent = 0
    }

    private let state: Mutex<State>

    init(listener: CommentListener, after lastEventID: Int, source: CommentReplaySource, logger: Logger) {
        self.listener = listener
        self.source = source
        self.logger = logger
        self.state = Mutex(State(cursor: lastEventID))
    }

    /// Starts the replay off the calling thread (which may be an event loop).
    func start() {
        DispatchQueue.global().async { self.step() }
    }

    private func step() {
        guard !listener.stream.isClosed else { return }
        let more = state.withLock { state -> Bool in
            do {
                if state.deletions == nil { state.deletions = try source.deletedIDs(state.cursor) }
                if let deletions = state.deletions, state.deletionsSent < deletions.count {
                    let end = min(deletions.count, state.deletionsSent + Self.deletionsPerPage)
                    listener.sendReplay(deletions[state.deletionsSent..<end].map { .deleted(photoID: listener.photoID, commentID: $0) })
                    state.deletionsSent = end
                    return true
                }
                let page = try source.page(state.cursor, Self.pageSize)
                listener.sendReplay(page.map { .added($0) })
                if let last = page.last { state.cursor = last.id }
                if page.count == Self.pageSize { return true }
                listener.finishCatchUp()
            } catch {
                logger.error("replaying comments failed", [("photo", String(listener.photoID)), ("error", "\(error)")])
                listener.stream.close() // the browser reconnects with the same Last-Event-ID
            }
            return false
        }
        if more { waitForTheClient() }
    }

    private func waitForTheClient() {
        listener.stream.whenDrained { [self] in DispatchQueue.global().async { self.step() } }
    }
}
