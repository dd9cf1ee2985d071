import Imaging

extension PhotoCatalog {
    /// When the entry's photo was taken: what its header said, else the file's modification time.
    static func taken(of entry: CatalogEntry) -> CaptureDate {
        if let text = entry.taken,
           let date = CaptureDate(rfc3339: text, source: entry.takenSource.flatMap(CaptureDate.Source.init(rawValue:)) ?? .file) {
            return date
        }
        return CaptureDate(utcNanoseconds: entry.fingerprint.modified)
    }

    /// Sorts the library's order again when a date or the list changed since it was last sorted.
    static func ensureOrder(_ state: inout State) {
        guard !state.orderValid else { return }
        let keys = state.photos.map { ($0.takenKey, $0.id) }
        var order = Array(0..<Int32(keys.count))
        order.sort { keys[Int($0)] < keys[Int($1)] }
        var rank = [Int32](repeating: 0, count: order.count)
        for (r, p) in order.enumerated() { rank[Int(p)] = Int32(r) }
        state.order = order
        state.rank = rank
        state.orderValid = true
    }

    /// The positions (in `photos`) of a list, in its order; nil for an album that has no photos.
    static func positions(_ scope: PhotoScope, _ order: PhotoOrder, in state: inout State,
                          identity: AlbumIdentity.Snapshot) -> [Int32]? {
        switch (scope, order) {
        case (.library, .id): return Array(0..<Int32(state.photos.count))
        case (.library, .taken):
            ensureOrder(&state)
            return state.order
        case (.album(let id), _):
            guard let list = ensureAlbums(&state, identity: identity).lists[id] else { return nil }
            return order == .id ? list.sorted() : list
        case (.members(let ids), _):
            let photos = state.photos
            if order == .id { return (0..<Int32(photos.count)).filter { ids.contains(photos[Int($0)].id) } }
            ensureOrder(&state)
            return state.order.filter { ids.contains(photos[Int($0)].id) }
        case (.sequence(let ids), _):
            return ids.compactMap { id in position(of: id, in: state).map(Int32.init) }
        }
    }

    /// Where a page after `after` starts in a list in its own order (`ids`): after that photo,
    /// or, when it is no longer listed, after the listed photos that came before it.
    static func start(after: Int, in ids: [Int], state: State) -> Int {
        guard let k = ids.firstIndex(of: after) else { return 0 }
        return ids[...k].reduce(0) { count, id in count + (position(of: id, in: state) == nil ? 0 : 1) }
    }

    /// The sort key of a photo id in an order: listed or not (a removed photo's row is still
    /// known, so a page can start after it); nil for an id never seen.
    static func key(of id: Int, _ order: PhotoOrder, in state: State) -> (Int64, Int)? {
        if order == .id { return (0, id) }
        if let i = position(of: id, in: state) { return (state.photos[i].takenKey, id) }
        return state.entries[id].map { (taken(of: $0).localMilliseconds, id) }
    }

    /// Up to `limit` photos of a list after the one with id `after` (from the start when nil),
    /// with the list's total and whether more follow; nil when the album has no photos.
    /// `after` need not be in the list any more: the page starts where it would be.
    func page(after: Int?, limit: Int, order: PhotoOrder = .taken, scope: PhotoScope = .library)
        -> (photos: [Photo], total: Int, more: Bool)? {
        if scope == .library && order == .id {
            // The published list is in id order already.
            return state.withLock { state in
                let start = after.map { Self.firstPosition(above: $0, in: state.photos) } ?? 0
                let end = min(state.photos.count, start + max(0, limit))
                return (Array(state.photos[start..<end]), state.photos.count, end < state.photos.count)
            }
        }
        let identity = albumSnapshot()
        return state.withLock { state in
            guard let list = Self.positions(scope, order, in: &state, identity: identity) else { return nil }
            var start = 0
            if case .sequence(let ids) = scope, let after {
                start = Self.start(after: after, in: ids, state: state)
            } else if let after {
                if let key = Self.key(of: after, order, in: state) {
                    start = Self.firstIndex(in: list, after: key, order, photos: state.photos)
                } else {
                    start = 0
                }
            }
            let end = min(list.count, start + max(0, limit))
            return (list[start..<end].map { state.photos[Int($0)] }, list.count, end < list.count)
        }
    }

    /// The first index of `list` whose photo comes after `key` (binary search: the list is in `order`).
    static func firstIndex(in list: [Int32], after key: (Int64, Int), _ order: PhotoOrder, photos: [Photo]) -> Int {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            let photo = photos[Int(list[mid])]
            let midKey = order == .id ? (0, photo.id) : (photo.takenKey, photo.id)
            if midKey <= key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// A listed photo with its place in a list: position (0-based) and the ids before and after
    /// it; nil when the photo is not in that list.
    func neighbours(of id: Int, order: PhotoOrder = .taken, scope: PhotoScope = .library)
        -> (photo: Photo, position: Int, previous: Int?, next: Int?)? {
        if scope == .library && order == .id {
            return state.withLock { state in
                guard let i = Self.position(of: id, in: state) else { return nil }
                return (state.photos[i], i, i > 0 ? state.photos[i - 1].id : nil,
                        i + 1 < state.photos.count ? state.photos[i + 1].id : nil)
            }
        }
        let identity = albumSnapshot()
        return state.withLock { state in
            guard let p = Self.position(of: id, in: state),
                  let list = Self.positions(scope, order, in: &state, identity: identity) else { return nil }
            let i: Int
            if case .library = scope, order == .taken {
                i = Int(state.rank[p])
            } else if case .sequence = scope {
                guard let found = list.firstIndex(of: Int32(p)) else { return nil }
                i = found
            } else {
                let photo = state.photos[p]
                let after = Self.firstIndex(in: list, after: order == .id ? (0, id) : (photo.takenKey, id), order, photos: state.photos)
                guard after > 0, list[after - 1] == Int32(p) else { return nil }
                i = after - 1
            }
            let photos = state.photos
            return (photos[p], i, i > 0 ? photos[Int(list[i - 1])].id : nil,
                    i + 1 < list.count ? photos[Int(list[i + 1])].id : nil)
        }
    }

    /// Every photo of a list in its order, with the generation it belongs to; nil for an album
    /// without photos.
    func ordered(_ order: PhotoOrder = .taken, scope: PhotoScope = .library) -> (generation: Int, photos: [Photo])? {
        let identity = albumSnapshot()
        return state.withLock { state in
            guard let list = Self.positions(scope, order, in: &state, identity: identity) else { return nil }
            if case .library = scope, order == .id { return (state.generation, state.photos) }
            let photos = state.photos
            return (state.generation, list.map { photos[Int($0)] })
        }
    }
}
