import Comments
import Dispatch
import HTTP
import Observability
import Synchronization

/// Everyone listening to a comment thread, by photo: new and deleted comments are pushed to them
/// as Server-Sent Events, with a heartbeat so proxies keep idle streams open.
final class CommentLiveEvents: Sendable {
    private struct State {
        var listeners: [Int: [ObjectIdentifier: CommentListener]] = [:]
        var stopped = false
    }

    private let state = Mutex(State())
    private let streams: Gauge
    private let logger: Logger
    private let heartbeat = Mutex<DispatchSourceTimer?>(nil)

    /// `heartbeatSeconds` is how often idle streams get a keep-alive comment (15 s: under the
    /// 30–60 s idle cut-off common in proxies and load balancers).
    init(streams: Gauge, logger: Logger, heartbeatSeconds: Double = 15) {
        self.streams = streams
        self.logger = logger
        // Made inside the lock: the timer is not Sendable, so it never exists outside it.
        heartbeat.withLock { heartbeat in
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + heartbeatSeconds, repeating: heartbeatSeconds, leeway: .milliseconds(250))
            timer.setEventHandler { [weak self] in self?.sendHeartbeat() }
            timer.resume()
            heartbeat = timer
        }
    }

    /// Starts a listener on `stream`. With `lastEventID`, first replays what was missed since,
    /// read from `replay` a page at a time off the calling thread (which may be an event loop).
    func open(photoID: Int, stream: any ResponseStream, lastEventID: Int?, replay: CommentReplaySource) {
        let listener = CommentListener(photoID: photoID, stream: stream, lastEventID: lastEventID)
        let added = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.listeners[photoID, default: [:]][ObjectIdentifier(listener)] = listener
            // Written as it is registered, under the same lock as `publish` takes its listeners:
            // a client that has the preamble gets every comment published after it. (Written
            // before, a comment posted on seeing it could miss the stream.)
            listener.write(CommentEvent.retryPreamble)
            return true
        }
        guard added else {
            stream.close()
            return
        }
        streams.add(1)
        stream.onClose { [weak self, weak listener] in
            if let self, let listener { self.remove(listener) }
        }
        if stream.isClosed { remove(listener) }
        // Registered before the replay is read, so a comment stored in between is either in the
        // replay or delivered live (or both, and then sent once).
        if let lastEventID {
            CommentReplay(listener: listener, after: lastEventID, source: replay, logger: logger).start()
        }
    }

    /// Pushes an event to everyone on its photo.
    func publish(_ event: CommentEvent) {
        let listeners = state.withLock { Array(($0.listeners[event.photoID] ?? [:]).values) }
        for listener in listeners { listener.deliver(event) }
    }

    /// Open streams, on one photo or on all.
    func count(photoID: Int? = nil) -> Int {
        state.withLock { state in
            if let photoID { return state.listeners[photoID]?.count ?? 0 }
            return state.listeners.values.reduce(0) { $0 + $1.count }
        }
    }

    /// Closes every stream and refuses new ones; the server is stopping.
    func closeAll() {
        heartbeat.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        let listeners = state.withLock { state -> [CommentListener] in
            state.stopped = true
            defer { state.listeners = [:] }
            return state.listeners.values.flatMap(\.values)
        }
        if !listeners.isEmpty { streams.add(-Double(listeners.count)) }
        for listener in listeners { listener.stream.close() }
    }

    private func remove(_ listener: CommentListener) {
        let removed = state.withLock { state -> Bool in
            let key = ObjectIdentifier(listener)
            guard state.listeners[listener.photoID]?.removeValue(forKey: key) != nil else { return false }
            if state.listeners[listener.photoID]?.isEmpty == true { state.listeners[listener.photoID] = nil }
            return true
        }
        if removed { streams.add(-1) }
    }

    func sendHeartbeat() {
        let listeners = state.withLock { $0.listeners.values.flatMap(\.values) }
        for listener in listeners where !listener.write(CommentEvent.keepAlive) {
            remove(listener)
        }
    }
}
