import HTTP
import Library

/// GET /folders, /folders/:id and /folders/:id/summary: the folders of the photos folder, each
/// with the photos directly in it.
extension PhotoRoutes {
    func registerFolders(on router: inout Router) {
        let library = rules(.library)
        router.get("/folders", lane: WorkLanes.catalog, access: library) { request in try folders(request) }
        router.get("/folders/:id/summary", lane: WorkLanes.catalog, access: library) { request in
            try summaryResponse(request, scope: .album(try PhotoPath.listID(request, "folder")))
        }
        router.get("/folders/:id", lane: WorkLanes.catalog, access: library) { request in try folder(request) }
    }

    /// `{"folders":[Folder…]}`, by folder name.
    func folders(_ request: HTTPRequest) throws -> HTTPResponse {
        try json(FolderList(folders: library.albums().map(FolderRecord.init)), request)
    }

    /// The folder's members, then a page of its photos as `GET /photos` pages the library.
    func folder(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try PhotoPath.listID(request, "folder")
        guard let folder = library.album(id) else { throw HTTPError(.notFound, "There is no folder at \(request.path).") }
        return try listResponse(request, scope: .album(id), base: "/folders/\(id)", heading: FolderRecord(folder), view: libraryView)
    }
}
