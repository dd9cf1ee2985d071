import Comments
import Foundation
import Library
import Observability
import Search
import SearchIndex
import Synchronization

/// Keeps the search index current: at start it writes the listed photos the index lacks and
/// forgets the ones no longer listed, in the background; then every catalog change and every
/// comment added or deleted queues its photo to be written again. One thread at a time drains
/// the queue, in batches, so the handlers that queue stay quick.
final class SearchIndexer: Sendable {
    let index: SQLSearchIndex
    let library: PhotoLibrary
    /// The texts of a photo's comments.
    let comments: @Sendable (Int) throws -> [String]
    let places: PlaceIndex?
    let logger: Logger

    private struct State {
        var pending: Set<Int> = []
        var draining = false
        var stopped = false
    }

    private let state = Mutex(State())
    /// Signalled when a drain ends, for `shutDown` and tests.
    private let idle = Mutex<[CheckedIdle]>([])

    /// Photos written in one transaction.
    static let batch = 256
    /// The most comments of one photo whose words are indexed.
    static let commentsPerPhoto = 1000

    init(index: SQLSearchIndex, library: PhotoLibrary, comments: @escaping @Sendable (Int) throws -> [String],
         places: PlaceIndex?, logger: Logger) {
        self.index = index
        self.library = library
        self.comments = comments
        self.places = places
        self.logger = logger
    }

    /// Listens to the catalog and, if given, the comment store, and queues what the index lacks.
    func start(commentStore: (any CommentStore)?) {
        library.observeChanges { [weak self] change in self?.queue(change.added + change.changed + change.removed) }
        commentStore?.onChange { [weak self] event in self?.queue([event.photoID]) }
        do {
            let listed = Set((library.ordered(.id)?.photos ?? []).map(\.id))
            let indexed = Set(try index.photoIDs())
            queue(Array(listed.subtracting(indexed)) + Array(indexed.subtracting(listed)))
        } catch {
            logger.error("cannot read the search index", [("error", String(describing: error))])
        }
    }

    /// Queues photos to be written again (or forgotten, when no longer listed).
    func queue(_ ids: [Int]) {
        guard !ids.isEmpty else { return }
        let starts = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.pending.formUnion(ids)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if starts { Thread.detachNewThread { [self] in drain() } }
    }

    /// Stops taking work and waits for the batch being written.
    func stop() {
        let draining = state.withLock { state -> Bool in
            state.stopped = true
            state.pending.removeAll()
            return state.draining
        }
        if draining { waitUntilIdle() }
    }

    /// Blocks until nothing is queued or being written.
    func waitUntilIdle() {
        let waiter = CheckedIdle()
        let busy = state.withLock { state -> Bool in
            guard state.draining else { return false }
            idle.withLock { $0.append(waiter) }
            return true
        }
        if busy { waiter.semaphore.wait() }
    }

    private func drain() {
        while true {
            let ids = state.withLock { state -> [Int] in
                let ids = Array(state.pending.sorted().prefix(Self.batch))
                state.pending.subtract(ids)
                if ids.isEmpty { state.draining = false }
                return ids
            }
            if ids.isEmpty {
                for waiter in idle.withLock({ waiters in defer { waiters.removeAll() }; return waiters }) { waiter.semaphore.signal() }
                return
            }
            write(ids)
        }
    }

    private func write(_ ids: [Int]) {
        var documents: [(photoID: Int, document: SearchDocument)] = []
        var gone: [Int] = []
        for id in ids {
            guard let photo = library.photo(id) else { gone.append(id); continue }
            let texts = (try? comments(id)) ?? []
            documents.append((id, PhotoSearchWords.document(photo, comments: texts, places: places)))
        }
        do {
            try index.write(documents)
            try index.remove(gone)
        } catch {
            logger.error("cannot write the search index", [("error", String(describing: error)), ("photos", String(ids.count))])
        }
    }
}

/// One waiter for the indexer's queue to empty.
final class CheckedIdle: Sendable {
    let semaphore = DispatchSemaphore(value: 0)
}
