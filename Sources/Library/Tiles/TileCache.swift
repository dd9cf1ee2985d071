import Imaging
import Synchronization

/// What a cached image is: one tile of one version, that version's thumbnail, or a rendition
/// of it (a region rendered on request, named by `RegionRendition.name` or the like).
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public var version: String
    /// The tile, or nil for the thumbnail or a rendition.
    public var tile: TileCoordinate?
    /// The rendition's name, or nil for a tile or the thumbnail.
    public var rendition: String?

    public init(version: String, tile: TileCoordinate?) {
        self.version = version
        self.tile = tile
        self.rendition = nil
    }

    /// A rendition of the version, named so that equal names are equal images.
    public init(version: String, rendition: String) {
        self.version = version
        self.tile = nil
        self.rendition = rendition
    }

    public var description: String {
        if let rendition { return "\(version)/\(rendition)" }
        return tile.map { "\(version)/\($0)" } ?? "\(version)/thumbnail"
    }

    /// The coordinate packed into one word rather than hashed as an optional and three words:
    /// every hot tile hashes one key. Coordinates too large to pack apart only collide, and ==
    /// settles those. Renditions, never on the hottest path, add their name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(tile.map { $0.z &<< 48 ^ $0.x &<< 24 ^ $0.y } ?? -1)
        if let rendition { hasher.combine(rendition) }
    }

    public static func == (lhs: TileKey, rhs: TileKey) -> Bool {
        lhs.tile == rhs.tile && lhs.version == rhs.version && lhs.rendition == rhs.rendition
    }

    /// The strong ETag of this image, quoted: `"version-z-x-y"`, `"version-thumbnail"`, or
    /// `"version-r<hash of the rendition's name>"` (names hold commas, which If-None-Match lists split at).
    /// Spelled by appending into one reserved buffer: interpolation costs several times more,
    /// and the cache keeps the result with its entry so a hot tile never spells it again.
    public var entityTag: String {
        var tag = String()
        tag.reserveCapacity(version.utf8.count + 40)
        tag.append("\"")
        tag.append(version)
        if let tile {
            tag.append("-"); tag.append(String(tile.z))
            tag.append("-"); tag.append(String(tile.x))
            tag.append("-"); tag.append(String(tile.y))
        } else if let rendition {
            tag.append("-r"); tag.append(ContentHash.hex(of: Array(rendition.utf8)))
        } else {
            tag.append("-thumbnail")
        }
        tag.append("\"")
        return tag
    }
}

/// Hot tiles in memory, evicted in the order of a second-chance (CLOCK) list once the byte cap
/// is reached: the oldest entry goes first unless it was used since it was last looked at, in
/// which case it is moved to the front and spared once.
///
/// Entries are `[UInt8]`, which is copy-on-write: a hit hands the same buffer to every
/// response without copying it. Lookups and inserts are O(1) under one short lock. A hit only
/// marks its entry as used, and only when the mark is not already there: a hot entry is read
/// and never written, so the event loops looking it up do not pass its memory between them
/// the way moving it to the front of a list on every hit would.
public final class TileCache: Sendable {
    /// A cached image as a hit hands it out.
    public struct Hit: Sendable {
        /// The image, shared with the cache (copy-on-write, so never copied here).
        public var bytes: [UInt8]
        /// `key.entityTag`, spelled once when the entry was stored.
        public var entityTag: String
        /// What the serving layer built from this entry and attached to it (see `attach`), or nil.
        public var attachment: (any AnyObject & Sendable)?
    }

    private struct Node {
        var key: TileKey
        var bytes: [UInt8]
        /// `key.entityTag`, spelled once when the entry is stored.
        var entityTag: String
        var attachment: (any AnyObject & Sendable)?
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

        /// The entry of `key`, marked as used; a hit counted when `counting`.
        mutating func use(_ key: TileKey, counting: Bool) -> Int? {
            guard let i = index[key] else { return nil }
            if !nodes[i].referenced { nodes[i].referenced = true }
            if counting { hits += 1 }
            return i
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
            nodes[i].entityTag = ""
            nodes[i].attachment = nil
            free.append(i)
        }
    }

    /// The most bytes kept; 0 keeps nothing.
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacityBytes: Int) {
        self.capacity = max(0, capacityBytes)
    }

    /// The cached bytes, marking them used. With `countingHit`, a hit is counted (see `takeHits`):
    /// under the lock the lookup holds anyway, rather than in a counter of its own that every
    /// hit from every loop would write.
    public func get(_ key: TileKey, countingHit: Bool = false) -> [UInt8]? {
        state.withLock { state in
            state.use(key, counting: countingHit).map { state.nodes[$0].bytes }
        }
    }

    /// The cached bytes with their ETag and attachment, marking them used: a hit builds nothing.
    public func entry(_ key: TileKey, countingHit: Bool = false) -> Hit? {
        state.withLock { state in
            state.use(key, counting: countingHit).map { i in
                Hit(bytes: state.nodes[i].bytes, entityTag: state.nodes[i].entityTag, attachment: state.nodes[i].attachment)
            }
        }
    }

    /// Only the attachment of `key`'s entry, marking it used; nil when the key is not cached or
    /// nothing is attached (and then no hit is counted). A hot hit through here touches one
    /// object of the entry's rather than three (the bytes and the ETag stay where they are).
    public func attachment(_ key: TileKey, countingHit: Bool = false) -> (any AnyObject & Sendable)? {
        state.withLock { state in
            guard let i = state.use(key, counting: false), let attachment = state.nodes[i].attachment else { return nil }
            if countingHit { state.hits += 1 }
            return attachment
        }
    }

    /// The hits counted since the last call.
    public func takeHits() -> Int {
        state.withLock { state in
            defer { state.hits = 0 }
            return state.hits
        }
    }

    /// Keeps `attachment` with the entry of `key` for as long as the entry stays (nothing when
    /// the key is not cached): what the serving layer derives from the key alone, such as a
    /// response's header fields, is then built once per entry instead of once per hit.
    public func attach(_ attachment: any AnyObject & Sendable, to key: TileKey) {
        state.withLock { state in
            guard let i = state.index[key] else { return }
            state.nodes[i].attachment = attachment
        }
    }

    /// Stores bytes, evicting (oldest unused first) until the cap holds. Larger than the cap: not kept.
    public func put(_ key: TileKey, _ bytes: [UInt8]) {
        guard bytes.count <= capacity else { return }
        let entityTag = key.entityTag
        state.withLock { state in
            if let existing = state.index[key] { state.remove(existing) }
            while state.bytes + bytes.count > capacity, state.tail >= 0 {
                state.evictOne()
            }
            let node = Node(key: key, bytes: bytes, entityTag: entityTag, attachment: nil, referenced: false, previous: -1, next: -1)
            let i: Int
            if let reused = state.free.popLast() {
                state.nodes[reused] = node
                i = reused
            } else {
                state.nodes.append(node)
                i = state.nodes.count - 1
            }
            state.index[key] = i
            state.pushFront(i)
            state.bytes += bytes.count
        }
    }

    /// Drops every entry whose version is not in `versions` (files changed or went away).
    public func retainVersions(_ versions: Set<String>) {
        state.withLock { state in
            for (key, i) in state.index where !versions.contains(key.version) { state.remove(i) }
        }
    }

    /// Bytes held now.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// Entries held now.
    public var count: Int { state.withLock { $0.index.count } }
}
