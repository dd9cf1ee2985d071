import FolderScan

extension PhotoCatalog {
    func albumSnapshot() -> AlbumIdentity.Snapshot {
        albumIdentity.withLock { AlbumIdentity.Snapshot(version: $0.version, idOf: $0.idOf) }
    }

    /// Gives every folder with photos its album id (a renamed folder keeps its own), and stores
    /// the new and renamed ones. Cheap when no photo was added, removed or moved since last time.
    func syncAlbums() {
        albumIdentity.withLock { identity in
            let seen = identity.seen
            let gathered = state.withLock { state -> (Int, [String: Set<Int>])? in
                guard state.pathsGeneration != seen else { return nil }
                // Photos in id order mostly come a folder at a time: gather each run of one
                // folder before looking the folder up, not a dictionary lookup per photo.
                var folders: [String: Set<Int>] = [:]
                var run: (folder: Substring, ids: [Int]) = ("", [])
                func flush() {
                    if !run.folder.isEmpty { folders[String(run.folder), default: []].formUnion(run.ids) }
                    run.ids.removeAll(keepingCapacity: true)
                }
                for photo in state.photos {
                    let folder = photo.folder
                    if folder != run.folder {
                        flush()
                        run.folder = folder
                    }
                    run.ids.append(photo.id)
                }
                flush()
                return (state.pathsGeneration, folders)
            }
            guard let (generation, folders) = gathered else { return }
            // A shared catalog: the scanning replica may have named new folders already, and
            // its ids are the ids (only one process scans at a time, so only one names them).
            do { identity.load(try store.albums()) } catch {
                logger.warning("cannot read albums; trying again at the next change", [("error", "\(error)")])
                return
            }
            var vanished = Set(identity.members.keys.filter { id in identity.pathOf[id].map { folders[$0] == nil } ?? true })
            var renamed: [AlbumRow] = []
            var fresh: [String] = []
            for path in folders.keys.sorted(by: NaturalOrder.less) where identity.idOf[path] == nil {
                let photos = folders[path]!
                var best: (id: Int, overlap: Int)?
                for id in vanished {
                    let before = identity.members[id] ?? []
                    let overlap = before.intersection(photos).count
                    if overlap > 0, overlap * 2 >= before.count, overlap > (best?.overlap ?? 0) { best = (id, overlap) }
                }
                if let best {
                    vanished.remove(best.id)
                    if let old = identity.pathOf[best.id] { identity.idOf[old] = nil }
                    identity.pathOf[best.id] = path
                    identity.idOf[path] = best.id
                    renamed.append(AlbumRow(id: best.id, path: path))
                } else {
                    fresh.append(path)
                }
            }
            do {
                _ = try store.saveAlbums(renamed)
                let ids = try store.saveAlbums(fresh.map { AlbumRow(path: $0) })
                for (path, id) in zip(fresh, ids) {
                    identity.pathOf[id] = path
                    identity.idOf[path] = id
                }
            } catch {
                // Tried again at the next change; the albums keep their ids meanwhile.
                logger.warning("cannot record albums", [("error", "\(error)")])
                return
            }
            for (path, photos) in folders { if let id = identity.idOf[path] { identity.members[id] = photos } }
            if !renamed.isEmpty {
                logger.info("albums renamed", [("albums", renamed.map { "\($0.id)=\($0.path)" }.joined(separator: ","))])
            }
            identity.seen = generation
            identity.version += 1
        }
    }

    /// Each album's photos in order, gathered again when the list or the albums changed.
    static func ensureAlbums(_ state: inout State, identity: AlbumIdentity.Snapshot) -> AlbumContents {
        if let contents = state.albumContents, contents.generation == state.generation,
           contents.identityVersion == identity.version {
            return contents
        }
        ensureOrder(&state)
        var lists: [Int: [Int32]] = [:]
        var last: (folder: Substring, id: Int?) = ("", nil)
        for p in state.order {
            let folder = state.photos[Int(p)].folder
            guard !folder.isEmpty else { continue }
            if folder != last.folder || last.id == nil { last = (folder, identity.idOf[String(folder)]) }
            guard let id = last.id else { continue }
            lists[id, default: []].append(p)
        }
        let contents = AlbumContents(generation: state.generation, identityVersion: identity.version, lists: lists)
        state.albumContents = contents
        return contents
    }

    /// Every album with photos, by folder name (numbers as numbers).
    func albums() -> [Album] {
        let identity = albumIdentity.withLock { $0 }
        let snapshot = AlbumIdentity.Snapshot(version: identity.version, idOf: identity.idOf)
        return state.withLock { state in
            let contents = Self.ensureAlbums(&state, identity: snapshot)
            return contents.lists.compactMap { id, list -> Album? in
                guard let path = identity.pathOf[id], let first = list.first, let last = list.last else { return nil }
                let shown = list.last { state.photos[Int($0)].status != .failed } ?? last
                return Album(id: id, path: path, title: String(path.split(separator: "/").last ?? Substring(path)),
                             count: list.count, first: state.photos[Int(first)], last: state.photos[Int(last)],
                             cover: state.photos[Int(shown)])
            }
        }.sorted { NaturalOrder.less($0.path, $1.path) }
    }

    /// One album with photos, or nil.
    func album(_ id: Int) -> Album? { albums().first { $0.id == id } }

    /// The album a listed photo is directly in; nil for a photo in the root folder or not listed.
    func albumID(ofPhoto id: Int) -> Int? {
        guard let folder = state.withLock({ state in Self.position(of: id, in: state).map { state.photos[$0].folder } }),
              !folder.isEmpty else { return nil }
        let name = String(folder)
        if let id = albumIdentity.withLock({ $0.idOf[name] }) { return id }
        // A folder new since the albums were last worked out: work them out now.
        _ = albums()
        return albumIdentity.withLock { $0.idOf[name] }
    }
}
