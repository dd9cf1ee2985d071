import Comments
import Foundation
import HTTP
import Synchronization

/// One open event stream on one photo's thread.
///
/// A listener that reconnects with `Last-Event-ID` first gets what it missed, read from the store
/// a page at a time (`CommentReplay`: deletions of comments it may be showing, then newer comments),
/// while live events that arrive meanwhile wait in `pending`; then it turns live. Events reach the
/// client in id order and each comment at most once: anything at or below `lastSentID` is dropped,
/// which absorbs the overlap between the replay and the live events.
final class CommentListener: Sendable {
    let photoID: Int
    let stream: any ResponseStream
    private struct State {
        /// Live events held back while the replay is read; nil once live.
        var pending: [CommentEvent]?
        var lastSentID: Int
    }
    /// Held while writing too, so frames reach the stream in the order decided here.
    private let state: Mutex<State>

    init(photoID: Int, stream: any ResponseStream, lastEventID: Int?) {
        self.photoID = photoID
        self.stream = stream
        self.state = Mutex(State(pending: lastEventID == nil ? nil : [], lastSentID: lastEventID ?? 0))
    }

    /// Whether it is still waiting for its replay.
    var isCatchingUp: Bool { state.withLock { $0.pending != nil } }

    /// Live events held back during a replay beyond which the stream is closed instead: the
    /// client reconnects and replays from where it got to, so nothing is lost and nothing grows.
    static let maxPending = 1000

    /// Sends a live event now, or holds it until the replay has been sent.
    func deliver(_ event: CommentEvent) {
        let overflow = state.withLock { state -> Bool in
            if state.pending != nil {
                guard state.pending!.count < Self.maxPending else { return true }
                state.pending!.append(event)
            } else {
                send(event, &state)
            }
            return false
        }
        if overflow { stream.close() }
    }

    /// Sends one page of what was missed while away.
    func sendReplay(_ missed: [CommentEvent]) {
        state.withLock { state in
            for event in missed { send(event, &state) }
        }
    }

    /// Sends whatever arrived during the replay, and turns live.
    func finishCatchUp() {
        state.withLock { state in
            for event in state.pending ?? [] { send(event, &state) }
            state.pending = nil
        }
    }

    /// Writes a frame of its own (preamble, heartbeat); false when the client is gone.
    @discardableResult
    func write(_ text: String) -> Bool {
        state.withLock { _ in stream.write(Array(text.utf8)) }
    }

    private func send(_ event: CommentEvent, _ state: inout State) {
        if case .added(let comment) = event {
            guard comment.id > state.lastSentID else { return }
            state.lastSentID = comment.id
        }
        stream.write(Array(event.serverSentEvent.utf8))
    }
}
