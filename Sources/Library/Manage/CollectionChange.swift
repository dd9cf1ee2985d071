/// What changed among the collections people keep beside the folder (albums, favourites, the
/// trash), as one process tells every other on the database: open views follow it live.
public struct CollectionChange: Sendable, Equatable {
    /// Albums made, renamed, reordered, given another cover, deleted, or given or losing photos.
    public var albums: Set<Int>
    /// Photos marked or unmarked as favourites.
    public var favourites: Set<Int>
    /// Whether photos went into the trash or left it (restored, emptied, expired).
    public var trash: Bool
    /// Anything may have changed: notifications were missed (the listener reconnected), or the
    /// change was too large to name.
    public var everything: Bool

    public init(albums: Set<Int> = [], favourites: Set<Int> = [], trash: Bool = false, everything: Bool = false) {
        self.albums = albums
        self.favourites = favourites
        self.trash = trash
        self.everything = everything
    }

    /// Anything may have changed.
    public static let unknown = CollectionChange(everything: true)

    public var isEmpty: Bool { albums.isEmpty && favourites.isEmpty && !trash && !everything }

    /// Whether album `id` may have changed.
    public func touches(album id: Int) -> Bool { everything || albums.contains(id) }

    /// Whether any album may have changed.
    public var touchesAlbums: Bool { everything || !albums.isEmpty }

    /// Whether any favourite may have changed.
    public var touchesFavourites: Bool { everything || !favourites.isEmpty }

    /// Whether the trash may have changed.
    public var touchesTrash: Bool { everything || trash }

    /// Both changes as one.
    public mutating func formUnion(_ other: CollectionChange) {
        albums.formUnion(other.albums)
        favourites.formUnion(other.favourites)
        trash = trash || other.trash
        everything = everything || other.everything
    }

    // MARK: the notification's payload

    /// `a1,2;f3;t`: the albums, the favourites, the trash; `*` for everything. Kept under
    /// PostgreSQL's 8,000-byte limit on a payload: a longer change is sent as everything.
    var payload: String {
        guard !everything else { return "*" }
        var parts: [String] = []
        if !albums.isEmpty { parts.append("a" + albums.sorted().map(String.init).joined(separator: ",")) }
        if !favourites.isEmpty { parts.append("f" + favourites.sorted().map(String.init).joined(separator: ",")) }
        if trash { parts.append("t") }
        let text = parts.joined(separator: ";")
        return text.utf8.count > Self.maxPayloadBytes ? "*" : text
    }

    /// The change a payload names; nil when it cannot be read (then everything is assumed).
    init?(payload: String) {
        self.init()
        if payload == "*" {
            everything = true
            return
        }
        for part in payload.split(separator: ";") {
            guard let kind = part.first else { return nil }
            let ids = part.dropFirst().split(separator: ",").map { Int($0) }
            switch kind {
            case "a" where !ids.contains(nil): albums = Set(ids.compactMap { $0 })
            case "f" where !ids.contains(nil): favourites = Set(ids.compactMap { $0 })
            case "t" where ids.isEmpty: trash = true
            default: return nil
            }
        }
    }

    static let maxPayloadBytes = 7_000
}
