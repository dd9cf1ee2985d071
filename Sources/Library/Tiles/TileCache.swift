import Imaging
import Synchronization

/// What a cached image is: one tile of one version, or that version's thumbnail.
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public var version: String
    /// The tile, or nil for the thumbnail.
    public var tile: TileCoordinate?

    public init(version: String, tile: TileCoordinate?) {
        self.version = version
        self.tile = tile
    }

    public var description: String { tile.map { "\(version)/\($0)" } ?? "\(version)/thumbnail" }

    /// The coordinate packed into one word rather than hashed as an optional and three words:
    /// every hot tile hashes one key. Coordinates too large to pack apart only collide, and ==
    /// settles those.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(tile.map { $0.z &<< 48 ^ $0.x &<< 24 ^ $0.y } ?? -1)
    }

    public static func == (lhs: TileKey, rhs: TileKey) -> Bool {
        lhs.tile == rhs.tile && lhs.version == rhs.version
    }

    /// The strong ETag of this image, quoted: `"version-z-x-y"`, or `"version-thumbnail"`.
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
        } else {
            tag.append("-thumbnail")
        }
        tag.append("\"")
        return tag
    }
}

/// Hot tiles in memory, least recently used evicted first once the byte cap is reached.
///
/// Entries are `[UInt8]`, which is copy-on-write: a hit hands the same buffer to every
/// response without copying it. Lookups and inserts are O(1) under one short lock.
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
        var previous: Int
        var next: Int
    }

    private struct State {
        var index: [TileKey: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        /// Most recently used; -1 when empty.
        var head = -1
        /// Least recently used; -1 when empty.
        var tail = -1
        var bytes = 0

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

    /// The cached bytes, marking them most recently used.
    public func get(_ key: TileKey) -> [UInt8]? {
        state.withLock { state in
            guard let i = state.index[key] else { return nil }
            if state.head != i {
                state.unlink(i)
                state.pushFront(i)
            }
            return state.nodes[i].bytes
        }
    }

    /// The cached bytes with their ETag and attachment, marking them most recently used: a hit
    /// builds nothing.
    public func entry(_ key: TileKey) -> Hit? {
        state.withLock { state in
            guard let i = state.index[key] else { return nil }
            if state.head != i {
                state.unlink(i)
                state.pushFront(i)
            }
            return Hit(bytes: state.nodes[i].bytes, entityTag: state.nodes[i].entityTag, attachment: state.nodes[i].attachment)
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

    /// Stores bytes, evicting the least recently used until the cap holds. Larger than the cap: not kept.
    public func put(_ key: TileKey, _ bytes: [UInt8]) {
        guard bytes.count <= capacity else { return }
        let entityTag = key.entityTag
        state.withLock { state in
            if let existing = state.index[key] { state.remove(existing) }
            while state.bytes + bytes.count > capacity, state.tail >= 0 {
                state.remove(state.tail)
            }
            let node = Node(key: key, bytes: bytes, entityTag: entityTag, attachment: nil, previous: -1, next: -1)
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
