import HTTP
import IIIF
import Imaging
import Library

extension IIIFRoutes {
    /// One image request: a tile's own bytes when it names a pyramid tile, otherwise a rendition.
    /// A memory hit for a tile is answered on the event loop; everything else on the workers.
    /// Under a share link, `prefix` is `/s/{token}`: the canonical `Link` names the link's URL.
    func image(_ request: HTTPRequest, prefix: String = "") throws -> Reply {
        if let hit = cachedTile(request, prefix: prefix) { return .encoded(hit) }
        let photo = try find(request)
        guard let pyramid = photo.pyramid(tileSize: tileSize) else { throw Self.unknownSize(photo) }
        let resolved = try resolve(request, width: photo.width, height: photo.height)
        let origin = try base.origin(of: request) + prefix
        let immutable = PhotoCaching.carriesVersion(request.queryString, photo.version)
        let key: TileKey
        let rendition: RegionRendition?
        if let tile = Self.tile(for: resolved, in: pyramid) {
            key = TileKey(version: photo.version, tile: tile)
            rendition = nil
        } else {
            let made = Self.rendition(resolved)
            key = TileKey(version: photo.version, rendition: made.name)
            rendition = made
        }
        let etag = key.entityTag
        let headers = Self.headers(resolved, photoID: photo.id, origin: origin, etag: etag, cacheControl: immutable ? caching.immutable : caching.short)
        if PhotoCaching.notModified(request, etag: etag) {
            var kept = headers
            kept.remove("Content-Type")
            return .response(HTTPResponse(status: .notModified, headers: kept))
        }
        if let image = library.cachedImage(key) { return .response(HTTPResponse(headers: headers, body: .bytes(image.bytes))) }
        guard let rendition else {
            // A pyramid tile: read (or, before the pyramid is built, rendered) in the images lane.
            return .offload { [library, logger] in
                do {
                    return HTTPResponse(headers: headers, body: .bytes(try library.image(of: photo, tile: key.tile)))
                } catch let error as ImagingError {
                    logger.warning("cannot render", [("photo", String(photo.id)), ("path", request.path), ("error", "\(error)")])
                    throw CrossOrigin.problem(.notFound, ClientText.photoError(error.description, of: photo))
                }
            }
        }
        // Anything else is a rendition: in a lane of its own, within its budget of pixels, time
        // and queue, and stopped when its client goes away. The whole photo fitted to a screen is
        // what the pager shows as a photo lands, so it is answered as a tile is, in the images
        // lane at the priority of requests; it is still costed and stopped when its client goes.
        let fitted = Self.isFittedView(resolved, of: photo)
        return .order(WorkOrder(lane: fitted ? WorkLanes.images : WorkLanes.renders, cost: Self.cost(resolved), abandonable: true,
                                refusalHeaders: HTTPHeaders([CrossOrigin.allowOrigin])) { [library, logger, renderSeconds, memory] ticket in
            // The renders lane's threads do nothing else: they yield the processor to requests.
            if !fitted { Vips.lowerThreadPriority() }
            do {
                let bytes = try memory.run { try Self.render(rendition, of: photo, library: library, seconds: renderSeconds, ticket: ticket) }
                return HTTPResponse(headers: headers, body: .bytes(bytes))
            } catch ImagingError.cancelled {
                throw CrossOrigin.problem(.serviceUnavailable, "The rendition was stopped: its client went away.", retryAfterSeconds: 1)
            } catch ImagingError.tookTooLong(let seconds) {
                logger.warning("rendition stopped: too slow", [("photo", String(photo.id)), ("path", request.path), ("seconds", "\(seconds)")])
                throw CrossOrigin.problem(.serviceUnavailable, ImagingError.tookTooLong(seconds: seconds).description
                                          + " Ask for a smaller size or region, or try again later.", retryAfterSeconds: Int(seconds.rounded(.up)))
            } catch let error as ImagingError {
                logger.warning("cannot render", [("photo", String(photo.id)), ("path", request.path), ("error", "\(error)")])
                throw CrossOrigin.problem(.notFound, ClientText.photoError(error.description, of: photo))
            }
        })
    }

    /// Renders with a stop of its own: cancelled with the ticket (its client went away), or
    /// past `seconds`. Identical requests share one render; when the one rendering for the
    /// others was stopped because its own client left, the others try again themselves.
    static func render(_ rendition: RegionRendition, of photo: Photo, library: Photos, seconds: Double,
                       ticket: WorkTicket) throws -> [UInt8] {
        var attempts = 0
        while true {
            let stop = RenderStop(seconds: seconds)
            ticket.onCancel { stop.cancel() }
            do {
                return try library.rendition(of: photo, rendition, stop: stop)
            } catch ImagingError.cancelled where !ticket.isCancelled && attempts < 3 {
                attempts += 1
            }
        }
    }

    /// The long side, in pixels, up to which the whole photo scaled down is a view on a screen
    /// (a 2880 × 1800 desktop at twice its density, a 5K display's height) rather than a batch
    /// rendition.
    static var maxFittedSide: Int { 4096 }

    /// Whether a request is the pager's fitted view of a built photo: the whole photo, shrunk to
    /// at most `maxFittedSide` on its long side, upright and unmirrored, as a colour JPEG. Its
    /// cost is bounded (cut from a pyramid level under twice its size each way), so it needs no
    /// lane of its own; before the build it would be read from the photo itself, which for a
    /// large file is the costly kind the renders lane is for.
    static func isFittedView(_ resolved: ResolvedImageRequest, of photo: Photo) -> Bool {
        let r = resolved.region
        return photo.status == .ready && r.x == 0 && r.y == 0 && r.width == photo.width && r.height == photo.height
            && resolved.width <= r.width && resolved.height <= r.height
            && max(resolved.width, resolved.height) <= maxFittedSide
            && resolved.format == .jpg && resolved.isPlainColor
    }

    /// What a rendition costs in the lane's budget, in pixels: the answer as sent (turned), and
    /// what is decoded for it: a pyramid level or a shrink-on-load decode with at least the
    /// pixels asked for, so up to four times the scaled size (at most the region, at least an
    /// eighth of it each way).
    static func cost(_ resolved: ResolvedImageRequest) -> Int {
        let answer = resolved.answerSize
        let region = resolved.region.width * resolved.region.height
        let decoded = min(region, max(4 * resolved.width * resolved.height, region / 64))
        return decoded + answer.width * answer.height
    }

    /// The hot path: an unconditional request naming a pyramid tile that is in memory, answered
    /// from the photo's version, size and status alone with an answer encoded once per tile,
    /// origin and caching. Nil for everything else, which the full path answers.
    private func cachedTile(_ request: HTTPRequest, prefix: String) -> EncodedResponse? {
        guard library.keepsImages, !request.hasIfNoneMatch,
              let id = PhotoPath.id(request.parameters), let info = library.imageInfo(id), info.status != .failed,
              let pyramid = info.pyramid(tileSize: tileSize),
              let resolved = try? resolve(request, width: info.width, height: info.height),
              let tile = Self.tile(for: resolved, in: pyramid),
              let stamp = library.heldImage(TileKey(version: info.version, tile: tile)) else { return nil }
        let kept: CachedTileAnswers
        if let found = answers.kept(stamp) {
            kept = found
        } else {
            guard let image = library.image(stamp) else { return nil }
            kept = answers.answers(for: image, tile: tile)
        }
        let immutable = kept.isCurrent(request.queryString)
        // The answer depends on the Host only through the origin, so the header's value is the
        // key: a hit compares it and spells nothing.
        let host = base.publicURL.isEmpty ? request.headers["Host"] ?? "" : ""
        if let answer = kept.iiifAnswer(photoID: id, host: host, prefix: prefix, immutable: immutable) { return answer }
        guard let origin = try? base.origin(of: request).appending(prefix) else { return nil }
        let etag = TileKey(version: kept.version, tile: tile).entityTag
        let answer = EncodedResponse(headers: Self.headers(resolved, photoID: id, origin: origin, etag: etag,
                                                           cacheControl: immutable ? caching.immutable : caching.short),
                                     body: kept.bytes)
        kept.keep(.init(photoID: id, host: host, prefix: prefix, immutable: immutable, answer: answer))
        return answer
    }

    /// The request's grammar parsed and resolved for a `width` × `height` photo under the limits.
    func resolve(_ request: HTTPRequest, width: Int, height: Int) throws -> ResolvedImageRequest {
        let p = request.parameters
        do {
            return try ImageRequest(region: p["region"] ?? "", size: p["size"] ?? "", rotation: p["rotation"] ?? "",
                                    qualityAndFormat: p["file"] ?? "")
                .resolved(width: width, height: height, limits: limits)
        } catch {
            throw CrossOrigin.problem(error.kind == .notImplemented ? .notImplemented : .badRequest, error.message)
        }
    }

    /// Head fields of an image answer: type, validators, caching, CORS, and the canonical URI
    /// and profile as Link headers.
    static func headers(_ resolved: ResolvedImageRequest, photoID: Int, origin: String, etag: String, cacheControl: String) -> HTTPHeaders {
        let link = "<\(origin)\(prefix)/\(photoID)/\(resolved.canonicalPath)>;rel=\"canonical\",<\(ImageInformation.profileDocument)>;rel=\"profile\""
        return HTTPHeaders([("Content-Type", resolved.format.mediaType), ("ETag", etag),
                            ("Cache-Control", cacheControl),
                            CrossOrigin.allowOrigin, ("Link", link)])
    }

    /// The pyramid tile whose bytes are exactly this answer: a plain colour JPEG of a region
    /// aligned to the tile grid at some level, at that level's size (edge tiles included), as
    /// info.json's `tiles` lead clients to ask.
    static func tile(for resolved: ResolvedImageRequest, in pyramid: TilePyramid) -> TileCoordinate? {
        guard resolved.format == .jpg, resolved.isPlainColor else { return nil }
        let r = resolved.region
        for z in 0...pyramid.maxZoom {
            let span = pyramid.tileSize << (pyramid.maxZoom - z)
            guard r.x % span == 0, r.y % span == 0,
                  r.width == min(span, pyramid.width - r.x), r.height == min(span, pyramid.height - r.y) else { continue }
            let tile = TileCoordinate(z: z, x: r.x / span, y: r.y / span)
            guard let rect = pyramid.rect(tile), rect.width == resolved.width, rect.height == resolved.height else { continue }
            return tile
        }
        return nil
    }

    /// The rendition libvips makes for a request that is not a tile.
    static func rendition(_ resolved: ResolvedImageRequest) -> RegionRendition {
        let tone: RegionRendition.Tone = switch resolved.quality {
        case .default, .color: .color
        case .gray: .gray
        case .bitonal: .bitonal
        }
        let format: RegionRendition.ImageFormat = switch resolved.format {
        case .jpg: .jpeg
        case .png: .png
        case .webp: .webp
        case .gif: .gif
        case .tif: .tiff
        }
        let r = resolved.region
        return RegionRendition(region: PixelRect(x: r.x, y: r.y, width: r.width, height: r.height), width: resolved.width,
                               height: resolved.height, mirrored: resolved.mirrored, degrees: resolved.degrees, tone: tone,
                               format: format)
    }
}
