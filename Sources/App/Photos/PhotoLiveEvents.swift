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
/// so nothing is replayed. It does so at the stream's first event, `hello`, written once the
/// stream is among those told of changes: the answer's head goes out before that, from the
/// connection's loop, while the stream is taken in on a worker thread. A comment line every `heartbeatSeconds` keeps proxies from closing
/// idle streams.
///
/// The collections beside the folder come in the same batches, each change by ids only:
/// `albums` (`{"ids":[…]}`: albums made, renamed, reordered, given another cover, deleted, or
/// given or losing photos), and, to a stream whose visitor may change the library (who alone may
/// read them), `favourites` (`{"ids":[…]}`: photos marked or unmarked) and `trash` (`{}`).
/// `ids` is left out when any may have changed (the database's listener reconnected). Another
/// replica's changes come through the database (`PhotoCollections.observeCollectionChanges`), as
/// its photos do through the catalog's.
///
/// A share link's stream (`/s/{token}/photos/events`) carries no records at all: only `reset`
/// with the number of photos the link shows, when a batch touches one of them (or removes
/// any photo, since a removed photo's album is no longer known), or changes the album it shows,
/// so nothing outside the link is ever named on it: no album, no favourite, no trash.
final class PhotoLiveEvents: Sendable {
    private enum Pending: Sendable { case added, changed, removed }

    /// What a share link's stream is told about: whether a photo is among the link's, and how
    /// many photos the link shows now.
    struct SharedScope: Sendable {
        let contains: @Sendable (Int) -> Bool
        let total: @Sendable () -> Int
        /// The album the link shows, whose changes (photos added or taken out) it is told of.
        var album: Int? = nil
    }

    private struct Listener {
        let stream: any ResponseStream
        /// nil for the library's own stream.
        let shared: SharedScope?
        /// Whether its visitor may change the library, and so read favourites and the trash.
        let manages: Bool
    }

    private struct State {
        var streams: [ObjectIdentifier: Listener] = [:]
        var pending: [Int: Pending] = [:]
        var pendingCollections = CollectionChange()
        var flushScheduled = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let library: any PhotoBrowsing
    private let tileSize: Int
    private let commentCount: @Sendable (Int) -> Int
    private let batchSeconds: Double
    private let maxRecords: Int
    private let queue = DispatchQueue(label: "photo-events")
    private let heartbeat = Mutex<DispatchSourceTimer?>(nil)
    private let gauge: Gauge
    private let options: PhotoRecord.Options
    private let cacheControl: String

    init(library: any PhotoBrowsing, tileSize: Int, commentCount: @escaping @Sendable (Int) -> Int, metrics: MetricsRegistry,
         collections: (any PhotoCollections)? = nil, options: PhotoRecord.Options = PhotoRecord.Options(), cacheControl: String = "no-cache",
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
        collections?.observeCollectionChanges { [weak self] change in self?.record(change) }
    }

    /// Open streams.
    var count: Int { state.withLock { $0.streams.count } }

    /// The response that opens a stream: of the library (`manages`: with favourites and the
    /// trash), or of what a share link shows.
    func response(shared: SharedScope? = nil, manages: Bool = false) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/event-stream")
        headers.set("Cache-Control", cacheControl)
        headers.set("X-Accel-Buffering", "no") // nginx in front would otherwise hold events back
        return HTTPResponse(status: .ok, headers: headers, body: .stream { [self] stream in
            open(stream, shared: shared, manages: shared == nil && manages)
        })
    }

    private func open(_ stream: any ResponseStream, shared: SharedScope?, manages: Bool) {
        let key = ObjectIdentifier(stream)
        let added = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.streams[key] = Listener(stream: stream, shared: shared, manages: manages)
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
        if schedule { scheduleFlush() }
    }

    /// Notes a change to the collections; it goes out with the batch.
    private func record(_ change: CollectionChange) {
        let schedule = state.withLock { state -> Bool in
            guard !state.streams.isEmpty, !state.stopped else { return false }
            state.pendingCollections.formUnion(change)
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        if schedule { scheduleFlush() }
    }

    private func scheduleFlush() {
        queue.asyncAfter(deadline: .now() + batchSeconds) { [weak self] in self?.flush() }
    }

    private func flush() {
        let (pending, collections) = state.withLock { state -> ([Int: Pending], CollectionChange) in
            defer {
                state.pending = [:]
                state.pendingCollections = CollectionChange()
                state.flushScheduled = false
            }
            return state.streams.isEmpty ? ([:], CollectionChange()) : (state.pending, state.pendingCollections)
        }
        tellShared(pending, collections)
        if !collections.isEmpty { sendCollections(collections) }
        guard !pending.isEmpty else { return }
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

    /// An `albums` or `favourites` event's data: `{"ids":[…]}`, without `ids` when any may have changed.
    private struct Changed: Encodable {
        let ids: [Int]?

        init(_ ids: Set<Int>, everything: Bool) { self.ids = everything ? nil : ids.sorted() }
    }

    /// A `trash` event's data: `{}`.
    private struct Nothing: Encodable {}

    /// A `hello` or `reset` event's data: `{"total":N}`.
    private struct Total: Encodable {
        let total: Int
    }

    /// An event's data line; records of strings and whole numbers always encode.
    private static func data<Value: Encodable>(_ value: Value) -> String {
        (try? JSONWriter.string(value)) ?? "{}"
    }

    /// The collections' events, each to the library streams that may read it.
    private func sendCollections(_ change: CollectionChange) {
        if change.touchesAlbums {
            broadcast("event: albums\ndata: \(Self.data(Changed(change.albums, everything: change.everything)))\n\n")
        }
        if change.touchesFavourites {
            broadcast("event: favourites\ndata: \(Self.data(Changed(change.favourites, everything: change.everything)))\n\n",
                      managing: true)
        }
        if change.touchesTrash { broadcast("event: trash\ndata: \(Self.data(Nothing()))\n\n", managing: true) }
    }

    /// Sends every library stream `frame` (`managing`: only those whose visitor may change the library).
    private func broadcast(_ frame: String, managing: Bool = false) {
        let streams = state.withLock { $0.streams.filter { $0.value.shared == nil && ($0.value.manages || !managing) } }
        guard !streams.isEmpty else { return }
        let bytes = Array(frame.utf8)
        for (key, listener) in streams where !listener.stream.write(bytes) { remove(key) }
    }

    /// Tells each share link's stream whose photos the batch touched, or whose album it changed,
    /// to fetch its list again.
    private func tellShared(_ pending: [Int: Pending], _ collections: CollectionChange) {
        let streams = state.withLock { $0.streams.filter { $0.value.shared != nil } }
        let removes = pending.values.contains(.removed)
        for (key, listener) in streams {
            guard let shared = listener.shared else { continue }
            let albumChanged = shared.album.map(collections.touches(album:)) ?? false
            guard albumChanged || removes || pending.keys.contains(where: shared.contains) else { continue }
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
