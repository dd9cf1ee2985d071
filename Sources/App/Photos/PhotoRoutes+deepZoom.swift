import HTTP
import Imaging
import Library

extension PhotoRoutes {
    /// DeepZoom over the same pyramid: `GET /photos/:id/image.dzi` and
    /// `GET /photos/:id/image_files/:level/:x_:y.jpg`. DeepZoom counts levels from a 1×1 image, so
    /// its levels are ours shifted by `TilePyramid.deepZoomShift`; the levels below our level 0
    /// (smaller than one tile, one tile each) are rendered on demand from it.
    func registerDeepZoom(on router: inout Router) {
        router.addReply(.GET, "/photos/:id/image_files/:level/:tile.jpg", lane: WorkLanes.images, access: rules(.library)) { request in
            try deepZoomTile(request)
        }
        router.add(.GET, "/photos/:id/image.dzi", execution: .inline, access: rules(.library)) { request in try deepZoomDescriptor(request) }
        for pattern in ["/photos/:id/image_files/:level/:tile.jpg", "/photos/:id/image.dzi"] {
            // A preflight carries no credentials and answers no data.
            router.add(.OPTIONS, pattern, execution: .inline, access: rules(.open)) { request in CrossOrigin.preflight(request) }
        }
    }

    /// The `.dzi` descriptor: size, tile size, no overlap, JPEG.
    func deepZoomDescriptor(_ request: HTTPRequest) throws -> HTTPResponse {
        let photo = try deepZoomPhoto(request)
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Image xmlns=\"http://schemas.microsoft.com/deepzoom/2008\" "
            + "Format=\"jpg\" Overlap=\"0\" TileSize=\"\(tileSize)\"><Size Width=\"\(photo.width)\" Height=\"\(photo.height)\"/></Image>\n"
        let bytes = Array(xml.utf8)
        let etag = "\"" + ContentHash.hex(of: bytes) + "\""
        let cacheControl = caching.cacheControl(request, version: photo.version)
        if PhotoCaching.notModified(request, etag: etag) {
            return HTTPResponse(status: .notModified, headers: HTTPHeaders([("ETag", etag), ("Cache-Control", cacheControl), CrossOrigin.allowOrigin]))
        }
        return HTTPResponse(headers: HTTPHeaders([("Content-Type", "application/xml; charset=utf-8"), ("ETag", etag),
                                                  ("Cache-Control", cacheControl), CrossOrigin.allowOrigin]), body: .bytes(bytes))
    }

    /// One DeepZoom tile: ours, byte for byte, from level `deepZoomShift` up; a small rendition below.
    func deepZoomTile(_ request: HTTPRequest) throws -> Reply {
        guard let id = PhotoPath.id(request.parameters), let info = library.imageInfo(id), info.status != .failed,
              let pyramid = info.pyramid(tileSize: tileSize), let level = PhotoPath.number(request.parameters, "level", at: 1),
              let (x, y) = Self.deepZoomColumnAndRow(request.parameters) else {
            throw CrossOrigin.problem(.notFound, "There is no DeepZoom tile at \(request.path).")
        }
        let shift = pyramid.deepZoomShift
        if level >= shift { return try image(request, tile: TileCoordinate(z: level - shift, x: x, y: y)) }
        guard x == 0, y == 0 else { throw CrossOrigin.problem(.notFound, "There is no DeepZoom tile at \(request.path).") }
        let photo = try deepZoomPhoto(request)
        let divisor = 1 << (pyramid.maxZoom + shift - level)
        let rendition = RegionRendition(region: PixelRect(x: 0, y: 0, width: photo.width, height: photo.height),
                                        width: (photo.width + divisor - 1) / divisor, height: (photo.height + divisor - 1) / divisor)
        let key = TileKey(version: photo.version, rendition: rendition.name)
        let cacheControl = caching.cacheControl(request, version: photo.version)
        let headers = HTTPHeaders([("Content-Type", "image/jpeg"), ("ETag", key.entityTag), ("Cache-Control", cacheControl),
                                   CrossOrigin.allowOrigin])
        if PhotoCaching.notModified(request, etag: key.entityTag) {
            return .response(HTTPResponse(status: .notModified, headers: HTTPHeaders([("ETag", key.entityTag),
                                                                                       ("Cache-Control", cacheControl), CrossOrigin.allowOrigin])))
        }
        return .offload { [library] in
            do {
                return HTTPResponse(headers: headers, body: .bytes(try library.rendition(of: photo, rendition, stop: nil)))
            } catch let error as ImagingError {
                throw CrossOrigin.problem(.notFound, ClientText.photoError(error.description, of: photo))
            }
        }
    }

    private func deepZoomPhoto(_ request: HTTPRequest) throws -> Photo {
        guard let id = PhotoPath.id(request.parameters), let photo = library.photo(id), photo.width > 0, photo.height > 0 else {
            throw CrossOrigin.problem(.notFound, "There is no photo at \(request.path).")
        }
        if photo.status == .failed { throw CrossOrigin.problem(.notFound, photo.error.map { ClientText.photoError($0, of: photo) } ?? "This photo cannot be shown.") }
        return photo
    }

    /// `x_y` of a DeepZoom tile name, each a plain decimal number.
    static func deepZoomColumnAndRow(_ parameters: RouteParameters) -> (Int, Int)? {
        parameters.withUTF8("tile", at: 2) { bytes -> (Int, Int)? in
            guard let cut = bytes.firstIndex(of: UInt8(ascii: "_")),
                  let x = PhotoPath.number(UnsafeBufferPointer(rebasing: bytes[..<cut])),
                  let y = PhotoPath.number(UnsafeBufferPointer(rebasing: bytes[(cut + 1)...])) else { return nil }
            return (x, y)
        } ?? nil
    }
}
