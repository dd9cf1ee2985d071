import HTTP
import IIIF
import Library

extension IIIFRoutes {
    /// The whole library as one Manifest: a Canvas per ready photo, in id order.
    func libraryManifest(_ request: HTTPRequest) throws -> HTTPResponse {
        let origin = try base.origin(of: request)
        let canvases = library.photos.filter { $0.status == .ready }.compactMap { canvas($0, origin: origin) }
        guard !canvases.isEmpty else {
            // A Manifest must paint at least one Canvas.
            throw CrossOrigin.problem(.notFound, "No photo is ready yet, so the library has no manifest.")
        }
        let manifest = PresentationManifest(id: origin + "/iiif/manifest.json", label: "PhotoScroll", canvases: canvases)
        return document(manifest.json, context: PresentationManifest.context, request,
                        headers: HTTPHeaders([CrossOrigin.allowOrigin, ("Cache-Control", PhotoCaching.revalidate)]))
    }

    /// One photo as a Manifest of one Canvas.
    func photoManifest(_ request: HTTPRequest) throws -> HTTPResponse {
        let photo = try find(request)
        let origin = try base.origin(of: request)
        guard let canvas = canvas(photo, origin: origin) else { throw Self.unknownSize(photo) }
        let manifest = PresentationManifest(id: origin + "/photos/\(photo.id)/manifest.json", label: photo.title, canvases: [canvas])
        return document(manifest.json, context: PresentationManifest.context, request,
                        headers: HTTPHeaders([CrossOrigin.allowOrigin, ("Cache-Control", PhotoCaching.cacheControl(request, version: photo.version))]))
    }

    /// A photo's Canvas: its size, its image service, its square thumbnail.
    func canvas(_ photo: Photo, origin: String) -> PresentationManifest.Canvas? {
        guard photo.width > 0, photo.height > 0 else { return nil }
        let largest = limits.fitted(width: photo.width, height: photo.height)
        let thumbnail = library.configuration.settings.thumbnailSize
        return PresentationManifest.Canvas(
            id: origin + "/photos/\(photo.id)/canvas", label: photo.title, width: photo.width, height: photo.height,
            service: origin + Self.prefix + "/\(photo.id)", maxWidth: largest.width, maxHeight: largest.height,
            thumbnail: origin + "/photos/\(photo.id)/thumbnail.jpg?v=\(photo.version)",
            thumbnailWidth: thumbnail, thumbnailHeight: thumbnail)
    }
}
