import Comments
import Foundation
import HTTP

/// One open event stream on one photo's thread.
///
/// A listener that reconnects with `Last-Event-ID` first gets what it missed, read from the store
/// a page at a time (`CommentReplay`: deletions of comments it may be showing, then newer comments),
/// while live events that arrive meanwhile wait in `pending`; then it turns live. Events reach the
/// client in id order and each comment at most once: anything at or below `lastSentID` is dropped,
/// which absorbs the overlap between the replay and the live events.
final class CommentListener: @unchecked Sendable {
    let photoID: Int
    let stream: any ResponseStream
    private let lock = NSLock()
    /// Live events held back while the replay is read; nil once live.
    private var pending: [CommentEvent]?
    private var lastSentID: Int

    init(photoID: Int, stream: any ResponseStream, lastEventID: Int?) {
        self.photoID = photoID
        self.stream = stream
        self.lastSentID = lastEventID ?? 0
        self.pending = lastEventID == nil ? nil : []
    }

    /// Whether it is still waiting for its replay.
    var isCatchingUp: Bool { lock.withLock { pending != nil } }

    /// Live events held back during a replay beyond which the stream is closed instead: the
    /// client reconnects and replays from where it got to, so nothing is lost and nothing grows.
    static let maxPending = 1000

    /// Sends a live event now, or holds it until the replay has been sent.
    func deliver(_ event: CommentEvent) {
        let overflow = lock.withLock { () -> Bool in
            if pending != nil {
                guard pending!.count < Self.maxPending else { return true }
                pending!.append(event)
            } else {
                send(event)
            }
            return false
        }
        if overflow { stream.close() }
    }

    /// Sends one page of what was missed while away.
    func sendReplay(_ missed: [CommentEvent]) {
        lock.withLock {
            for event in missed { send(event) }
        }
    }

    /// Sends whatever arrived during the replay, and turns live.
    func finishCatchUp() {
        lock.withLock {
            for event in pending ?? [] { send(event) }
            pending = nil
        }
    }

    /// Writes a frame of its own (preamble, heartbeat); false when the client is gone.
    @discardableResult
    func write(_ text: String) -> Bool {
        lock.withLock { stream.write(Array(text.utf8)) }
    }

    private func send(_ event: CommentEvent) {
        if case .added(let comment) = event {
            guard comment.id > lastSentID else { return }
            lastSentID = comment.id
        }
        stream.write(Array(event.serverSentEvent.utf8))
    }
}
