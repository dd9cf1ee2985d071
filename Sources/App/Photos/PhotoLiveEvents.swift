import Dispatch
import HTTP
import Library
import Observability
import Synchronization

/// `GET /photos/events`: photos added, changed and removed, pushed as Server-Sent Events so a
/// page never re-downloads the list to find out.
///
/// Changes are gathered for `batchSeconds` and sent as one `photos` event:
/// `{"added":[Photo…],"changed":[Photo…],"removed":[id…],"total":N}`, records as
/// `GET /photos/{id}` gives them (without their place). A batch of more than `maxRecords`
/// records is sent as `reset` (`{"total":N}`) instead: fetch the summary again. A client that
/// reconnects fetches the summary again too (a conditional request: 304 when nothing changed),
/// so nothing is replayed. A comment line every `heartbeatSeconds` keeps proxies from closing
/// idle streams.
///
/// A share link's stream (`/s/{token}/photos/events`) carries no records at all: only `reset`
/// with the number of photos the link shows, when a batch touches one of them (or removes
/// any photo, since a removed photo's album is no longer known), so nothing outside the link
/// is ever named on it.
final class PhotoLiveEvents: Sendable {
    private enum Pending: Sendable { case added, changed, removed }

    /// What a share link's stream is told about: whether a photo is among the link's, and how
    /// many photos the link shows now.
    struct SharedScope: Sendable {
        let contains: @Sendable (Int) -> Bool
        let total: @Sendable () -> Int
    }

    private struct Listener {
        let stream: any ResponseStream
        /// nil for the library's own stream.
        let shared: SharedScope?
    }

    private struct State {
        var streams: [ObjectIdentifier: Listener] = [:]
        var pending: [Int: Pending] = [:]
        var flushScheduled = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let library: PhotoLibrary
    private let tileSize: Int
    private let commentCount: @Sendable (Int) -> Int
    private let batchSeconds: Double
    private let maxRecords: Int
    private let queue = DispatchQueue(label: "photo-events")
    private let heartbeat = Mutex<DispatchSourceTimer?>(nil)
    private let gauge: Gauge
    private let options: PhotoRecord.Options
    private let cacheControl: String

    init(library: PhotoLibrary, tileSize: Int, commentCount: @escaping @Sendable (Int) -> Int, metrics: MetricsRegistry,
         options: PhotoRecord.Options = PhotoRecord.Options(), cacheControl: String = "no-cache",
         batchSeconds: Double = 0.25, maxRecords: Int = 200, heartbeatSeconds: Double = 15) {
        self.options = options
        self.cacheControl = cacheControl
        self.library = library
        self.tileSize = tileSize
        self.commentCount = commentCount
        self.batchSeconds = batchSeconds
        self.maxRecords = maxRecords
        self.gauge = metrics.gauge("photoscroll_photo_streams", help: "Open streams of photo list events.")
        // Made inside the lock: the timer is not Sendable, so it never exists outside it.
        heartbeat.withLock { heartbeat in
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + heartbeatSeconds, repeating: heartbeatSeconds, leeway: .seconds(1))
            timer.setEventHandler { [weak self] in self?.keepAlive() }
            timer.resume()
            heartbeat = timer
        }
        library.observeChanges { [weak self] change in self?.record(change) }
    }

    /// Open streams.
    var count: Int { state.withLock { $0.streams.count } }

    /// The response that opens a stream: of the library, or of what a share link shows.
    func response(shared: SharedScope? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/event-stream")
        headers.set("Cache-Control", cacheControl)
        headers.set("X-Accel-Buffering", "no") // nginx in front would otherwise hold events back
        return HTTPResponse(status: .ok, headers: headers, body: .stream { [self] stream in open(stream, shared: shared) })
    }

    private func open(_ stream: any ResponseStream, shared: SharedScope?) {
        let key = ObjectIdentifier(stream)
        let added = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.streams[key] = Listener(stream: stream, shared: shared)
            return true
        }
        guard added else {
            stream.close()
            return
        }
        gauge.add(1)
        stream.onClose { [weak self] in self?.remove(key) }
        let total = shared.map { $0.total() } ?? library.count
        stream.write(Array("retry: 2000\n\nevent: hello\ndata: \(Self.data(Total(total: total)))\n\n".utf8))
        if stream.isClosed { remove(key) }
    }

    private func remove(_ key: ObjectIdentifier) {
        let removed = state.withLock { $0.streams.removeValue(forKey: key) != nil }
        if removed { gauge.add(-1) }
    }

    /// Notes a change; the batch goes out `batchSeconds` after its first change.
    private func record(_ change: CatalogChange) {
        let schedule = state.withLock { state -> Bool in
            guard !state.streams.isEmpty, !state.stopped else { return false }
            for id in change.added { state.pending[id] = .added }
            for id in change.changed where state.pending[id] != .added { state.pending[id] = .changed }
            for id in change.removed { state.pending[id] = .removed }
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        if schedule { queue.asyncAfter(deadline: .now() + batchSeconds) { [weak self] in self?.flush() } }
    }

    private func flush() {
        let pending = state.withLock { state -> [Int: Pending] in
            defer {
                state.pending = [:]
                state.flushScheduled = false
            }
            return state.streams.isEmpty ? [:] : state.pending
        }
        guard !pending.isEmpty else { return }
        tellShared(pending)
        let total = library.count
        let records = pending.values.filter { $0 != .removed }.count
        if records > maxRecords {
            broadcast("event: reset\ndata: \(Self.data(Total(total: total)))\n\n")
            return
        }
        var batch = Batch(total: total)
        for (id, kind) in pending.sorted(by: { $0.key < $1.key }) {
            guard kind != .removed, let photo = library.photo(id) else {
                batch.removed.append(id)
                continue
            }
            let record = PhotoRecord(photo, tileSize: tileSize, commentCount: commentCount(id), options: options)
            if kind == .added { batch.added.append(record) } else { batch.changed.append(record) }
        }
        broadcast("event: photos\ndata: \(Self.data(batch))\n\n")
    }

    /// A `photos` event's data: `{"added":[Photo…],"changed":[Photo…],"removed":[id…],"total":N}`.
    private struct Batch: Encodable {
        var added: [PhotoRecord] = []
        var changed: [PhotoRecord] = []
        var removed: [Int] = []
        let total: Int

        init(total: Int) { self.total = total }
    }

    /// A `hello` or `reset` event's data: `{"total":N}`.
    private struct Total: Encodable {
        let total: Int
    }

    /// An event's data line; records of strings and whole numbers always encode.
    private static func data<Value: Encodable>(_ value: Value) -> String {
        (try? JSONWriter.string(value)) ?? "{}"
    }

    /// Sends every library stream `frame`.
    private func broadcast(_ frame: String) {
        let streams = state.withLock { $0.streams.filter { $0.value.shared == nil } }
        guard !streams.isEmpty else { return }
        let bytes = Array(frame.utf8)
        for (key, listener) in streams where !listener.stream.write(bytes) { remove(key) }
    }

    /// Tells each share link's stream whose photos the batch touched to fetch its list again.
    private func tellShared(_ pending: [Int: Pending]) {
        let streams = state.withLock { $0.streams.filter { $0.value.shared != nil } }
        let removes = pending.values.contains(.removed)
        for (key, listener) in streams {
            guard let shared = listener.shared, removes || pending.keys.contains(where: shared.contains) else { continue }
            if !listener.stream.write(Array("event: reset\ndata: \(Self.data(Total(total: shared.total())))\n\n".utf8)) { remove(key) }
        }
    }

    /// A comment line on every stream, so proxies do not close idle ones.
    private func keepAlive() {
        let streams = state.withLock { $0.streams }
        let bytes = Array(": keep-alive\n\n".utf8)
        for (key, listener) in streams where !listener.stream.write(bytes) { remove(key) }
    }

    /// Closes every stream and refuses new ones; the server is stopping.
    func closeAll() {
        heartbeat.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        let streams = state.withLock { state -> [any ResponseStream] in
            state.stopped = true
            defer { state.streams = [:] }
            return state.streams.values.map(\.stream)
        }
        if !streams.isEmpty { gauge.add(-Double(streams.count)) }
        for stream in streams { stream.close() }
    }
}
