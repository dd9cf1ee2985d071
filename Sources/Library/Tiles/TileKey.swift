import Imaging

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
        hasher.combine(packedTile)
        if let rendition { hasher.combine(rendition) }
    }

    /// The hash the cache's dictionary asks for. A tile's key is folded into one word (the
    /// version's bytes, eight at a time, and the packed coordinate), and only that word is
    /// hashed with the dictionary's seed: a hot tile hashes one word instead of feeding a
    /// `Hasher` a string and a word (some 400 instructions per lookup). Its parts are made by
    /// the server (the photo's version, a coordinate inside its pyramid), so nobody can pick
    /// keys that fold alike; a rendition's name comes from a request, so those keys are hashed
    /// whole, seed and all.
    public func _rawHashValue(seed: Int) -> Int {
        if rendition != nil {
            var hasher = Hasher()
            hasher.combine(seed)
            hash(into: &hasher)
            return hasher.finalize()
        }
        let start = UInt64(bitPattern: Int64(packedTile))
        let folded = version.utf8.withContiguousStorageIfAvailable { Self.fold(UnsafeRawBufferPointer($0), into: start) }
            ?? Array(version.utf8).withUnsafeBytes { Self.fold($0, into: start) }
        return Int(truncatingIfNeeded: folded)._rawHashValue(seed: seed)
    }

    private var packedTile: Int { tile.map { $0.z &<< 48 ^ $0.x &<< 24 ^ $0.y } ?? -1 }

    /// `bytes` folded into `word` eight at a time, the length with the last, short, piece.
    static func fold(_ bytes: UnsafeRawBufferPointer, into word: UInt64) -> UInt64 {
        @inline(__always) func mixed(_ word: UInt64) -> UInt64 {
            let product = word &* 0x9E37_79B9_7F4A_7C15
            return product ^ product >> 29
        }
        var word = word, offset = 0
        while offset + 8 <= bytes.count {
            word = mixed(word ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var last = UInt64(bytes.count) &<< 56
        for (index, byte) in bytes[offset...].enumerated() { last |= UInt64(byte) &<< UInt64(8 * index) }
        return mixed(word ^ last)
    }

    public static func == (lhs: TileKey, rhs: TileKey) -> Bool {
        lhs.tile == rhs.tile && lhs.version == rhs.version && lhs.rendition == rhs.rendition
    }
}
