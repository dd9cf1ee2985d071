import Comments
import Foundation
import HTTP

/// One open event stream on one photo's thread.
///
/// A listener that reconnects with `Last-Event-ID` first gets what it missed, read from the store
/// (deletions of comments it may be showing, then newer comments),
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

    /// Sends a live event now, or holds it until the replay has been sent.
    func deliver(_ event: CommentEvent) {
        lock.withLock {
            if pending != nil {
                pending!.append(event)
            } else {
                send(event)
            }
        }
    }

    /// Sends what was missed while away, then whatever arrived meanwhile, and turns live.
    func finishCatchUp(_ missed: [CommentEvent]) {
        lock.withLock {
            for event in missed { send(event) }
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
