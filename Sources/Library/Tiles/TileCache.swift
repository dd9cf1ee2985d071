import Synchronization

/// The tile cache and its whole policy, in one place: what is kept, for how long, and what goes.
///
/// - Kept: every tile, thumbnail and rendition that is read from a built pyramid or rendered,
///   if it fits the byte cap on its own (0 keeps nothing: images are then sent from disk); a
///   rendition only up to 1/256 of the cap (1 MiB of 256): a large one is seldom asked for
///   twice, and a burst of them would push out the tiles people are looking at and keep the
///   memory of a burst long after it.
///   Concurrent fills of one missing image share one render (`fill`).
/// - For how long: while its photo version is current (`retainVersions` after a scan found
///   files changed or gone), and until it is evicted.
/// - Evicted: in the order of a second-chance (CLOCK) list once the byte cap is reached: the
///   oldest entry goes first unless it was used since it was last looked at, in which case it
///   is moved to the front and spared once.
///
/// Entries are `[UInt8]`, which is copy-on-write: a hit hands the same buffer to every
/// response without copying it. Lookups and inserts are O(1) under one short lock. A hit only
/// marks its entry as used, and only when the mark is not already there: a hot entry is read
/// and never written, so the event loops looking it up do not pass its memory between them
/// the way moving it to the front of a list on every hit would.
///
/// Internal to the library: callers see it through `PhotoLibrary` (`lookupImage`,
/// `heldImage`, `image(_:)`, `observeDroppedImages`). What they derive from an entry's bytes
/// (App's encoded answers) they keep themselves, by the entry's `ImageStamp`, and drop when
/// the entry goes: an entry that leaves is announced (`onDrop`) after the lock is released.
final class TileCache: Sendable {
    private struct Node {
        var key: TileKey
        var bytes: [UInt8]
        /// Slot index in the high half, a per-store generation in the low half; 0 when free.
        var stamp: UInt64
        /// Used since the eviction scan last passed it.
        var referenced: Bool
        var previous: Int
        var next: Int
    }

    private struct State {
        var index: [TileKey: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        /// Newest (or most recently spared); -1 when empty.
        var head = -1
        /// Oldest: where eviction looks first; -1 when empty.
        var tail = -1
        var bytes = 0
        /// Hits counted and not yet taken (see `takeHits`).
        var hits = 0
        /// The low half of the next stamp; never 0.
        var generation: UInt32 = 0
        /// Entries removed under the lock, announced once it is released (`announce`).
        var dropped: [ImageStamp] = []

        /// The entry of `key`, marked as used; a hit counted when `counting`.
        @inline(__always)
        mutating func use(_ key: TileKey, counting: Bool) -> Int? {
            guard let i = index[key] else { return nil }
            if !nodes[i].referenced { nodes[i].referenced = true }
            if counting { hits += 1 }
            return i
        }

        @inline(__always)
        func image(_ i: Int) -> CachedImage {
            CachedImage(bytes: nodes[i].bytes, version: nodes[i].key.version, stamp: ImageStamp(raw: nodes[i].stamp))
        }

        /// Evicts the oldest entry not used since the scan last passed it; used ones met on the
        /// way are moved to the front with their mark cleared. Ends within two passes.
        mutating func evictOne() {
            while tail >= 0 {
                let i = tail
                if nodes[i].referenced {
                    nodes[i].referenced = false
                    unlink(i)
                    pushFront(i)
                } else {
                    remove(i)
                    return
                }
            }
        }

        mutating func unlink(_ i: Int) {
            // Only the two links are read: copying the node would retain its key and bytes.
            let previous = nodes[i].previous, next = nodes[i].next
            if previous >= 0 { nodes[previous].next = next } else { head = next }
            if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        }

        mutating func pushFront(_ i: Int) {
            nodes[i].previous = -1
            nodes[i].next = head
            if head >= 0 { nodes[head].previous = i }
            head = i
            if tail < 0 { tail = i }
        }

        mutating func remove(_ i: Int) {
            unlink(i)
            bytes -= nodes[i].bytes.count
            index[nodes[i].key] = nil
            nodes[i].bytes = []
            dropped.append(ImageStamp(raw: nodes[i].stamp))
            nodes[i].stamp = 0
            free.append(i)
        }

        /// The slot of the entry stamped `stamp`, or nil when it is not held.
        func slot(of stamp: ImageStamp) -> Int? {
            let slot = stamp.slot
            return stamp.raw != 0 && slot < nodes.count && nodes[slot].stamp == stamp.raw ? slot : nil
        }

        /// The entries removed since the last call.
        mutating func takeDropped() -> [ImageStamp] {
            guard !dropped.isEmpty else { return [] }
            defer { dropped = [] }
            return dropped
        }

        mutating func nextStamp(slot: Int) -> UInt64 {
            generation &+= 1
            if generation == 0 { generation = 1 }
            return UInt64(slot) << 32 | UInt64(generation)
        }
    }

    /// The most bytes kept; 0 keeps nothing.
    let capacity: Int
    private let state = Mutex(State())
    private let fills = SingleFlight<TileKey, [UInt8]>()
    /// Told of every entry that goes (evicted, dropped or stored again), outside the lock.
    private let dropObservers = Mutex<[@Sendable (ImageStamp) -> Void]>([])

    init(capacityBytes: Int) {
        self.capacity = max(0, capacityBytes)
    }

    /// Whether anything is kept at all (a cap above 0).
    var keepsImages: Bool { capacity > 0 }

    /// Whether an image of `byteCount` bytes is kept when stored: one that fits the cap alone.
    func admits(byteCount: Int) -> Bool { byteCount <= capacity && capacity > 0 }

    /// Whether the image of `key` is kept when stored: as `admits(byteCount:)`, and a rendition
    /// only up to `capacity / 256` bytes.
    func admits(_ key: TileKey, byteCount: Int) -> Bool {
        admits(byteCount: byteCount) && (key.rendition == nil || byteCount <= capacity / 256)
    }

    /// Whether an image of `version` may stay while `current` are the versions in the catalog.
    static func outlives(_ version: String, current: Set<String>) -> Bool { current.contains(version) }

    /// The cached image, marking it used. With `countingHit`, a hit is counted (see `takeHits`):
    /// under the lock the lookup holds anyway, rather than in a counter of its own that every
    /// hit from every loop would write.
    func get(_ key: TileKey, countingHit: Bool = false) -> CachedImage? {
        state.withLock { state in
            state.use(key, counting: countingHit).map { state.image($0) }
        }
    }

    /// The stamp of the entry of `key`, marking it used; a hit is counted when `countingHit`.
    /// One lock, and nothing retained: the bytes and the version stay where they are.
    @inline(__always)
    func lookup(_ key: TileKey, countingHit: Bool = false) -> ImageStamp? {
        state.withLock { state in
            state.use(key, counting: countingHit).map { ImageStamp(raw: state.nodes[$0].stamp) }
        }
    }

    /// The image stamped `stamp` while it is held; neither counted nor marked used (the lookup
    /// that handed out the stamp did both).
    func image(_ stamp: ImageStamp) -> CachedImage? {
        state.withLock { state in state.slot(of: stamp).map { state.image($0) } }
    }

    /// Calls `observer` with the stamp of every entry that goes from now on (evicted, dropped,
    /// or stored again), on the thread that removed it, after the cache's lock is released.
    func onDrop(_ observer: @escaping @Sendable (ImageStamp) -> Void) {
        dropObservers.withLock { $0.append(observer) }
    }

    private func announce(_ dropped: [ImageStamp]) {
        guard !dropped.isEmpty else { return }
        let observers = dropObservers.withLock { $0 }
        for stamp in dropped { for observer in observers { observer(stamp) } }
    }

    /// Whether the entry stamped `stamp` is still held (not evicted, dropped or stored again).
    func holds(_ stamp: ImageStamp) -> Bool {
        state.withLock { $0.slot(of: stamp) != nil }
    }

    /// The bytes of `key`: from memory, else made by `load` and stored (when they fit). Callers
    /// filling the same missing key at once share one `load`. Blocks as long as `load` does.
    func fill(_ key: TileKey, _ load: () throws -> [UInt8]) throws -> [UInt8] {
        try fills.run(key) { () throws -> [UInt8] in
            // Another caller may have finished this very image while we waited for the lock.
            if let image = get(key) { return image.bytes }
            let bytes = try load()
            put(key, bytes)
            return bytes
        }
    }

    /// The hits counted since the last call.
    func takeHits() -> Int {
        state.withLock { state in
            defer { state.hits = 0 }
            return state.hits
        }
    }

    /// Stores bytes, evicting (oldest unused first) until the cap holds. Not admitted: not kept.
    func put(_ key: TileKey, _ bytes: [UInt8]) {
        guard admits(key, byteCount: bytes.count) else { return }
        let dropped = state.withLock { state -> [ImageStamp] in
            if let existing = state.index[key] { state.remove(existing) }
            while state.bytes + bytes.count > capacity, state.tail >= 0 {
                state.evictOne()
            }
            let i = state.free.popLast() ?? state.nodes.count
            let node = Node(key: key, bytes: bytes, stamp: state.nextStamp(slot: i), referenced: false, previous: -1, next: -1)
            if i < state.nodes.count { state.nodes[i] = node } else { state.nodes.append(node) }
            state.index[key] = i
            state.pushFront(i)
            state.bytes += bytes.count
            return state.takeDropped()
        }
        announce(dropped)
    }

    /// Drops every entry whose version is not in `versions` (files changed or went away).
    func retainVersions(_ versions: Set<String>) {
        let dropped = state.withLock { state -> [ImageStamp] in
            for (key, i) in state.index where !Self.outlives(key.version, current: versions) { state.remove(i) }
            return state.takeDropped()
        }
        announce(dropped)
    }

    /// Bytes held now.
    var bytes: Int { state.withLock { $0.bytes } }

    /// Entries held now.
    var count: Int { state.withLock { $0.index.count } }
}
