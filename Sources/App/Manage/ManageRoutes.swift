import Foundation
import HTTP
import Library
import Observability
import POSIX

/// Favourites, folders, moving and copying photos, the trash and albums: every change to photos
/// is a file operation in the photos folder (or the trash in the data folder) that a person
/// could also make by hand; favourites, albums and the trash's memory are in the database.
///
///     GET    /favourites                      {"ids":[…]}
///     PUT    /favourites/{id}, DELETE …        mark, unmark → 204
///     POST   /favourites                      {"add":[ids],"remove":[ids]} → {"ids":[…]}
///     POST   /folders                         {"path":"Trips/Rome"} → 201 {"path"}: a new, empty folder
///     PATCH  /folders/{id}                    {"title":"Rome 2024"} → {"id","path"}: the folder renamed, its id kept
///     DELETE /folders/{id}                    its photos to the trash → {"batch","items":[…]}
///     POST   /photos/move, /photos/copy       {"ids":[…],"folder":id | "path"} → {"photos":[{"from","id","path"}]}
///     POST   /albums, PATCH|DELETE /albums/{id}, POST|DELETE /albums/{id}/photos: see `ManageRoutes+albums`
///     POST   /photos/trash                    {"ids":[…]} → {"batch","items":[…]} (Undo: restore the batch)
///     GET    /trash                           {"items":[…],"trashDays"}
///     POST   /trash/restore                   {"batch":"…"} or {"items":["…"]} → {"photos":[…]}
///     DELETE /trash, DELETE /trash/{item}      empty the trash, or delete one for good → 204
struct ManageRoutes: Sendable {
    let library: any PhotoManaging
    let store: any PhotoCollections
    let permission: ManagePermission
    let trashDays: Int
    let logger: Logger
    /// Unix seconds now.
    let now: @Sendable () -> Int

    /// The routes, each open to whoever may change the library (`Rule.Kind.manage`; every one
    /// also checks `permission` itself).
    func register(on router: inout Router, rules: RouteRules = .none) {
        let lane = WorkLanes.uploads
        let manage = rules(.manage)
        router.get("/favourites", lane: WorkLanes.catalog, access: manage) { request in try allowed(request) { try favourites() } }
        router.add(.PUT, "/favourites/:id", lane: lane, access: manage) { request in
            try allowed(request) { try setFavourite([try Self.photoID(request)], true, request) }
        }
        router.delete("/favourites/:id", lane: lane, access: manage) { request in
            try allowed(request) { try setFavourite([try Self.photoID(request)], false, request) }
        }
        router.post("/favourites", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in
            try allowed(request) {
                let body = try Self.decode(FavouriteChange.self, request)
                _ = try setFavourite(body.add ?? [], true, request)
                _ = try setFavourite(body.remove ?? [], false, request)
                return try favourites()
            }
        }
        router.post("/folders", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in try allowed(request) { try createFolder(request) } }
        router.add(.PATCH, "/folders/:id", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in try allowed(request) { try renameFolder(request) } }
        router.delete("/folders/:id", lane: lane, access: manage) { request in try allowed(request) { try deleteFolder(request) } }
        registerAlbums(on: &router, rules: rules)
        router.post("/photos/move", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in try allowed(request) { try place(request, copying: false) } }
        router.post("/photos/copy", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in try allowed(request) { try place(request, copying: true) } }
        router.post("/photos/trash", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in
            try allowed(request) { try trash(try Self.decode(PhotoSelection.self, request).ids) }
        }
        router.get("/trash", lane: WorkLanes.catalog, access: manage) { request in try allowed(request) { try trashList() } }
        router.post("/trash/restore", maxBodyBytes: Self.maxBody, lane: lane, access: manage) { request in try allowed(request) { try restore(request) } }
        router.delete("/trash", lane: lane, access: manage) { request in
            try allowed(request) {
                try library.purge(try store.trash(), store: store)
                return HTTPResponse(status: .noContent)
            }
        }
        router.delete("/trash/:item", lane: lane, access: manage) { request in
            try allowed(request) {
                guard let item = try store.trashItem(request.parameters["item"] ?? "") else { throw HTTPError(.notFound, "There is no such item in the trash.") }
                try library.purge([item], store: store)
                return HTTPResponse(status: .noContent)
            }
        }
    }

    /// Largest request body of these routes: a selection of a few thousand ids.
    static let maxBody = 256 * 1024

    func allowed(_ request: HTTPRequest, _ body: () throws -> HTTPResponse) throws -> HTTPResponse {
        try permission.check(request)
        do { return try body() } catch let error as ManageError {
            switch error {
            case .noSuchPhoto: throw HTTPError(.notFound, error.description)
            case .folder(let folder): throw UploadService.refusal(folder)
            }
        } catch let error as FolderWriteError {
            throw UploadService.refusal(error)
        }
    }

    // MARK: - Favourites

    private func favourites() throws -> HTTPResponse {
        try HTTPResponse.json(FavouriteList(ids: try store.favourites()), headers: ["Cache-Control": "no-store"])
    }

    private func setFavourite(_ ids: [Int], _ favourite: Bool, _ request: HTTPRequest) throws -> HTTPResponse {
        guard ids.count <= 10_000 else { throw HTTPError(.contentTooLarge, "At most 10000 photos at once.") }
        if favourite, let missing = ids.first(where: { library.photo($0) == nil }) { throw HTTPError(.notFound, "There is no photo \(missing).") }
        try store.setFavourite(ids, favourite, now: now())
        return HTTPResponse(status: .noContent)
    }

    // MARK: - Folders

    private func createFolder(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.decode(NewFolder.self, request)
        let path = body.path ?? body.title ?? ""
        do { try library.writer.makeFolder(path) } catch { throw HTTPError(.badRequest, error.description) }
        logger.info("folder made", [("path", path)])
        return try HTTPResponse.json(FolderPlace(id: nil, path: path), status: .created)
    }

    /// The folder of the route's `:id` (the catalog calls a folder an `Album`).
    private func folder(_ request: HTTPRequest) throws -> Album {
        guard let id = request.parameters["id"].flatMap(Int.init), let folder = library.album(id) else {
            throw HTTPError(.notFound, "There is no folder at \(request.path).")
        }
        return folder
    }

    private func renameFolder(_ request: HTTPRequest) throws -> HTTPResponse {
        let album = try folder(request)
        let body = try Self.decode(FolderRename.self, request)
        let newPath: String
        do { newPath = try library.writer.renameFolder(album.path, to: body.title) } catch {
            if case .system(let failure) = error, failure.errno == Errno.fileExists {
                throw HTTPError(.conflict, "There is already a folder named \(body.title) beside \(album.title).")
            }
            throw HTTPError(.badRequest, error.description)
        }
        // The folder's photos are the same files under a new path: they keep their ids, and the
        // folder keeps its id (its photos are now in the new folder).
        library.rescanNow(ScanScope(trees: [newPath], goneTrees: [album.path]), patience: .seconds(2))
        let renamed = library.albums().first { $0.path == newPath }
        logger.info("folder renamed", [("from", album.path), ("to", newPath)])
        return try HTTPResponse.json(FolderPlace(id: renamed?.id, path: newPath))
    }

    private func deleteFolder(_ request: HTTPRequest) throws -> HTTPResponse {
        let album = try folder(request)
        let ids = library.photos.filter { PhotoFolder.parent(of: $0.relativePath) == album.path }.map(\.id)
        let answer = try trash(ids)
        library.writer.removeFolderIfEmpty(album.path)
        return answer
    }

    // MARK: - Moving and copying

    private func place(_ request: HTTPRequest, copying: Bool) throws -> HTTPResponse {
        let body = try Self.decode(PhotoDestination.self, request)
        guard body.ids.count <= 10_000 else { throw HTTPError(.contentTooLarge, "At most 10000 photos at once.") }
        let folder: String
        switch body.folder {
        case .id(let id)?:
            guard let found = library.album(id) else { throw HTTPError(.notFound, "There is no folder \(id).") }
            folder = found.path
        case .path(let path)?:
            do { _ = try PhotoFolderWriter.components(path) } catch { throw HTTPError(.badRequest, error.description) }
            folder = path
        case nil:
            throw HTTPError(.badRequest, body.album != nil
                ? "Photos move and copy between folders: say \"folder\" (a folder id or path). To put photos in an album, POST /albums/{id}/photos."
                : "Say where the photos go: \"folder\", a folder id or a path in the photos folder.")
        }
        let placed = copying ? try library.copy(body.ids, toFolder: folder) : try library.move(body.ids, toFolder: folder)
        logger.info(copying ? "photos copied" : "photos moved", [("photos", String(placed.count)), ("folder", folder)])
        return try HTTPResponse.json(PlacedList(photos: placed.map { .init(from: $0.from, id: $0.id, path: $0.path) }))
    }

    // MARK: - Trash

    private func trash(_ ids: [Int]) throws -> HTTPResponse {
        guard ids.count <= 10_000 else { throw HTTPError(.contentTooLarge, "At most 10000 photos at once.") }
        let items = try library.trash(ids, store: store, now: now())
        logger.info("photos moved to the trash", [("photos", String(items.count))])
        return try HTTPResponse.json(TrashBatch(batch: items.first?.batch, items: items.map(trashEntry)))
    }

    private func trashEntry(_ item: TrashItem) -> TrashEntry {
        TrashEntry(id: item.id, batch: item.batch, photo: item.photoID, path: item.path, size: item.size,
                   deleted: HTTPDate.format(item.deletedAt), expires: HTTPDate.format(item.deletedAt + trashDays * 86_400))
    }

    private func trashList() throws -> HTTPResponse {
        try HTTPResponse.json(TrashList(items: try store.trash().map(trashEntry), trashDays: trashDays), headers: ["Cache-Control": "no-store"])
    }

    private func restore(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.decode(TrashRestore.self, request)
        var items: [TrashItem] = []
        if let batch = body.batch { items += try store.trashItems(batch: batch) }
        for id in body.items ?? [] { if let item = try store.trashItem(id) { items.append(item) } }
        guard !items.isEmpty else { throw HTTPError(.notFound, "Nothing in the trash matches; it may have been restored or emptied already.") }
        let placed = try library.restore(items, store: store)
        logger.info("photos restored from the trash", [("photos", String(placed.count))])
        return try HTTPResponse.json(PlacedList(photos: placed.map { .init(from: $0.from, id: $0.id, path: $0.path) }))
    }

    /// Deletes trashed photos older than `trashDays`.
    @discardableResult
    func sweepTrash() -> Int {
        do { return try library.purge(try store.trash(deletedBefore: now() - trashDays * 86_400), store: store) } catch {
            logger.warning("cannot empty the old part of the trash; trying again later", [("error", "\(error)")])
            return 0
        }
    }

    // MARK: - Bodies

    private static func photoID(_ request: HTTPRequest) throws -> Int {
        guard let id = request.parameters["id"].flatMap(Int.init) else { throw HTTPError(.notFound, "There is no photo at \(request.path).") }
        return id
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) throws -> T {
        guard request.headers["Content-Type"]?.lowercased().hasPrefix("application/json") ?? false else {
            throw HTTPError(.unsupportedMediaType, "Send a JSON body (Content-Type: application/json).")
        }
        do { return try JSONDecoder().decode(T.self, from: Data(request.body)) } catch {
            throw HTTPError(.badRequest, "The JSON body does not have the fields this needs: \(Self.describe(error)).")
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.isEmpty ? "it is not JSON of the right shape" : "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is wrong"
        default: "it is not JSON"
        }
    }
}
