import Comments
import Foundation
import Library
import Observability
import POSIX
import Search
import SearchIndex
import Synchronization

/// Keeps the search index current. One thread of its own, at a lower priority than requests,
/// waits until the catalog has a listing, then fills the index with the listed photos it lacks
/// (and forgets the ones no longer listed) in small batches, letting tiles for viewers go first
/// between them; every catalog change and every comment added or deleted queues its photo to be
/// written again. The handlers that queue only queue. Until the fill is done the index is
/// partial (`progress`), and search says so.
final class SearchIndexer: Sendable {
    let index: SQLSearchIndex
    let library: any PhotoBrowsing
    /// The texts of a photo's comments.
    let comments: @Sendable (Int) throws -> [String]
    /// The titles of the albums each photo is in, read once per batch (albums are few).
    let albumTitles: @Sendable () throws -> [Int: [String]]
    let places: PlaceNames
    let logger: Logger

    private struct State {
        var pending: Set<Int> = []
        /// The start-up fill: photos it must still write (nil until the listing has been read).
        var unfilled: Set<Int>?
        var fillTotal = 0
        /// Photos written since the index was last compacted; at a start, as if enough were
        /// (an index written by an earlier run may never have been).
        var written = SearchIndexer.compactAfter
        var started = false
        var stopped = false
        /// Whether the thread is writing a batch or has work queued.
        var busy = false
        var waiters: [DispatchSemaphore] = []

        var isIdle: Bool { !busy && unfilled?.isEmpty == true }
    }

    private let state = Mutex(State())
    /// Signalled when there is work or the indexer stops.
    /// Work done on the index's thread each time its queue empties (`whenIdle`).
    private let idleWork = Mutex<[@Sendable () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Photos written in one transaction: a short one, so a writer beside it never waits long.
    static let batch = 64
    /// Photos written since the index was last compacted after which an idle second compacts it
    /// (`SQLSearchIndex.compact`: about a second at 100,000 photos).
    static let compactAfter = 256
    /// The most comments of one photo whose words are indexed.
    static let commentsPerPhoto = 1000

    init(index: SQLSearchIndex, library: any PhotoBrowsing, comments: @escaping @Sendable (Int) throws -> [String],
         albumTitles: @escaping @Sendable () throws -> [Int: [String]] = { [:] }, places: PlaceNames, logger: Logger) {
        self.index = index
        self.library = library
        self.comments = comments
        self.albumTitles = albumTitles
        self.places = places
        self.logger = logger
    }

    /// Listens to the catalog and, if given, the comment store, and starts the thread that fills
    /// the index and keeps it current; returns at once.
    func start(commentStore: (any CommentStore)?) {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard first else { return }
        library.observeChanges { [weak self] change in self?.queue(change.added + change.changed + change.removed) }
        commentStore?.onChange { [weak self] event in self?.queue([event.photoID]) }
        let thread = Thread { [self] in run() }
        thread.name = "search-index"
        thread.start()
    }

    /// Runs `work` on the index's thread, at its low priority, each time the photos queued are
    /// written and nothing more came for a second: what a request would otherwise work out first (the suggestions' vocabulary, a
    /// second or more at 100,000 photos), worked out before one asks.
    func whenIdle(_ work: @escaping @Sendable () -> Void) {
        idleWork.withLock { $0.append(work) }
    }

    /// Queues photos to be written again (or forgotten, when no longer listed).
    func queue(_ ids: [Int]) {
        guard !ids.isEmpty else { return }
        let queued = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.pending.formUnion(ids)
            state.busy = true
            return true
        }
        if queued { wake.signal() }
    }

    /// Stops taking work and waits for the batch being written.
    func stop() {
        let running = state.withLock { state -> Bool in
            defer {
                state.stopped = true
                state.pending.removeAll()
            }
            return state.started && !state.stopped
        }
        guard running else { return }
        wake.signal()
        finished.wait()
    }

    /// Blocks until the start-up fill is done and nothing is queued or being written.
    func waitUntilIdle() {
        let waiter = DispatchSemaphore(value: 0)
        let waits = state.withLock { state -> Bool in
            guard state.started && !state.stopped && !state.isIdle else { return false }
            state.waiters.append(waiter)
            return true
        }
        if waits { waiter.wait() }
    }

    /// Whether the index may lack listed photos: its start-up fill is not done.
    var isPartial: Bool { state.withLock { $0.unfilled?.isEmpty != true } }

    /// How far the start-up fill is, in one sentence for `/readyz`; nil once it is done.
    var summary: String? {
        state.withLock { state in
            guard let unfilled = state.unfilled else { return "Search index: waiting for the photo listing." }
            guard !unfilled.isEmpty else { return nil }
            return "Search index: \(state.fillTotal - unfilled.count) of \(state.fillTotal) photos written."
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        defer { finished.signal() }
        _ = places.index
        while !library.isReady {
            if isStopped { return }
            _ = wake.wait(timeout: .now() + 0.1)
        }
        // What requests would work out first (suggestions), before the fill: one types first.
        // At the requests' own priority, as the first to ask would: they wait for this one (no
        // vocabulary is kept yet), and at nice 10 on a loaded machine it took minutes at
        // 100,000 photos.
        for work in idleWork.withLock({ $0 }) { work() }
        // From now on requests, and tiles rendered for viewers, go first: Linux keeps a nice
        // value per thread.
        System.setCallingThreadNice(10)
        fill()
        while !isStopped {
            let ids = state.withLock { state -> [Int] in
                let ids = Self.lowest(Self.batch, of: state.pending)
                state.pending.subtract(ids)
                if ids.isEmpty {
                    state.busy = false
                    for waiter in state.waiters { waiter.signal() }
                    state.waiters.removeAll()
                }
                return ids
            }
            if ids.isEmpty {
                // Idle: once nothing more has come for a second (never between an ingest's
                // batches), work out what a request would.
                if wake.wait(timeout: .now() + 1) == .timedOut {
                    compactIfWritten()
                    rebuildPostingsIfBehind()
                    for work in idleWork.withLock({ $0 }) { work() }
                    wake.wait()
                }
                continue
            }
            write(ids)
            state.withLock { state in
                state.unfilled?.subtract(ids)
                state.written += ids.count
            }
            library.waitForViewersToSettle()
        }
        state.withLock { state in
            for waiter in state.waiters { waiter.signal() }
            state.waiters.removeAll()
        }
    }

    /// The `count` lowest of `ids`, in order, in one pass over them: the next batch, in id order
    /// (so a batch touches the postings of one or two chunks). Sorting every queued id for each
    /// batch of 64 was, during a first fill, a copy and sort of up to the whole library's ids
    /// per batch, under the lock that every catalog change takes to queue its photo.
    static func lowest(_ count: Int, of ids: Set<Int>) -> [Int] {
        var lowest: [Int] = []
        lowest.reserveCapacity(count)
        guard count > 0 else { return lowest }
        for id in ids {
            if lowest.count == count {
                guard id < lowest[count - 1] else { continue }
                lowest.removeLast()
            }
            var low = 0, high = lowest.count
            while low < high {
                let mid = (low + high) / 2
                if lowest[mid] < id { low = mid + 1 } else { high = mid }
            }
            lowest.insert(id, at: low)
        }
        return lowest
    }

    /// Compacts the index once enough photos were written since it last was.
    private func compactIfWritten() {
        let due = state.withLock { state -> Bool in
            guard state.written >= Self.compactAfter else { return false }
            state.written = 0
            return true
        }
        guard due else { return }
        do {
            try index.compact()
        } catch {
            logger.error("cannot compact the search index", [("error", String(describing: error))])
        }
    }

    /// Builds PostgreSQL's postings again if a replica of an earlier build wrote the index
    /// without them (searches read the words meanwhile): one look at two numbers otherwise.
    private func rebuildPostingsIfBehind() {
        do {
            if try index.rebuildPostingsIfBehind() { logger.info("rebuilt the search index's postings, which an earlier build's writes had left behind") }
        } catch {
            logger.error("cannot rebuild the search index's postings", [("error", String(describing: error))])
        }
    }

    /// Queues the listed photos the index lacks and the indexed ones no longer listed.
    private func fill() {
        var missing: Set<Int> = []
        do {
            let listed = Set((library.ordered(.id, scope: .library)?.photos ?? []).map(\.id))
            let indexed = Set(try index.photoIDs())
            missing = listed.subtracting(indexed).union(indexed.subtracting(listed))
        } catch {
            logger.error("cannot read the search index", [("error", String(describing: error))])
        }
        state.withLock { state in
            state.unfilled = missing
            state.fillTotal = missing.count
            state.pending.formUnion(missing)
            state.busy = true
        }
    }

    private func write(_ ids: [Int]) {
        let places = places.index
        var documents: [(photoID: Int, document: SearchDocument)] = []
        var gone: [Int] = []
        let albums = (try? albumTitles()) ?? [:]
        for id in ids {
            guard let photo = library.photo(id) else { gone.append(id); continue }
            let texts = (try? comments(id)) ?? []
            documents.append((id, PhotoSearchWords.document(photo, comments: texts, albums: albums[id] ?? [], places: places)))
        }
        do {
            try index.write(documents)
            try index.remove(gone)
        } catch {
            logger.error("cannot write the search index", [("error", String(describing: error)), ("photos", String(ids.count))])
        }
    }
}
