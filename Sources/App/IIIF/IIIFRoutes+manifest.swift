import HTTP
import IIIF
import Library

extension IIIFRoutes {
    /// The whole library as one Manifest: a Canvas per ready photo, in id order. Under a share
    /// link, the photos it shows, every id under the link.
    func libraryManifest(_ request: HTTPRequest, view: PhotoView? = nil) throws -> HTTPResponse {
        let origin = try base.origin(of: request)
        let prefix = view?.prefix ?? ""
        let photos: [Photo]
        switch view?.scope ?? .library {
        case .library: photos = library.photos
        case .folder(let id): photos = (library.ordered(.id, scope: .album(id))?.photos ?? [])
        case .album: photos = view?.listScope.flatMap { library.ordered(.taken, scope: $0)?.photos } ?? []
        case .photo(let id): photos = library.photo(id).map { [$0] } ?? []
        }
        let canvases = photos.filter { $0.status == .ready }.compactMap { canvas($0, origin: origin + prefix) }
        guard !canvases.isEmpty else {
            // A Manifest must paint at least one Canvas.
            throw CrossOrigin.problem(.notFound, "No photo is ready yet, so there is no manifest.")
        }
        let manifest = PresentationManifest(id: origin + prefix + "/iiif/manifest.json", label: "PhotoScroll", canvases: canvases)
        return document(manifest.json, context: PresentationManifest.context, request,
                        headers: HTTPHeaders([CrossOrigin.allowOrigin, ("Cache-Control", caching.revalidate)]))
    }

    /// An album's or a folder's photos as one Manifest (`scope`), labelled with its title, at
    /// `path` (its own address, which the Manifest's id repeats).
    func listManifest(_ request: HTTPRequest, scope: PhotoScope, label: String, path: String) throws -> HTTPResponse {
        let origin = try base.origin(of: request)
        let canvases = (library.ordered(.taken, scope: scope)?.photos ?? [])
            .filter { $0.status == .ready }.compactMap { canvas($0, origin: origin) }
        guard !canvases.isEmpty else {
            throw CrossOrigin.problem(.notFound, "No photo of \(label) is ready yet, so there is no manifest.")
        }
        let manifest = PresentationManifest(id: origin + path, label: label, canvases: canvases)
        return document(manifest.json, context: PresentationManifest.context, request,
                        headers: HTTPHeaders([CrossOrigin.allowOrigin, ("Cache-Control", caching.revalidate)]))
    }

    /// One photo as a Manifest of one Canvas.
    func photoManifest(_ request: HTTPRequest, prefix: String = "") throws -> HTTPResponse {
        let photo = try find(request)
        let origin = try base.origin(of: request) + prefix
        guard let canvas = canvas(photo, origin: origin) else { throw Self.unknownSize(photo) }
        let manifest = PresentationManifest(id: origin + "/photos/\(photo.id)/manifest.json", label: photo.title, canvases: [canvas])
        return document(manifest.json, context: PresentationManifest.context, request,
                        headers: HTTPHeaders([CrossOrigin.allowOrigin, ("Cache-Control", caching.cacheControl(request, version: photo.version))]))
    }

    /// A photo's Canvas: its size, its image service, its square thumbnail; `origin` ends in a
    /// share link's prefix for the link's manifests.
    func canvas(_ photo: Photo, origin: String) -> PresentationManifest.Canvas? {
        guard photo.width > 0, photo.height > 0 else { return nil }
        let largest = limits.fitted(width: photo.width, height: photo.height)
        let thumbnail = thumbnailSize
        return PresentationManifest.Canvas(
            id: origin + "/photos/\(photo.id)/canvas", label: photo.title, width: photo.width, height: photo.height,
            service: origin + Self.prefix + "/\(photo.id)", maxWidth: largest.width, maxHeight: largest.height,
            thumbnail: origin + "/photos/\(photo.id)/thumbnail.jpg?v=\(photo.version)",
            thumbnailWidth: thumbnail, thumbnailHeight: thumbnail)
    }
}
