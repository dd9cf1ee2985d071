import HTTP
import Library

/// `GET /places` and, under a share link, `GET /s/:token/places`: where the photos the view sees
/// were taken, for a Places view without a map. Only where the view shows where photos were
/// taken: the library's `showLocation`, a link's `location`; elsewhere the list is empty, so
/// nothing about a photo's position leaks through a view that hides it.
struct PlaceRoutes<Photos: PhotoBrowsing & ImageServing>: Sendable {
    let photos: PhotoRoutes<Photos>
    let places: PhotoPlaces

    func register(on router: inout Router, shared: SharedRoutes<Photos>?) {
        router.get("/places", lane: WorkLanes.catalog, access: photos.rules(.library)) { request in
            try list(request, view: photos.libraryView)
        }
        if let shared {
            router.get("/s/:token/places", lane: WorkLanes.catalog, access: shared.control.rule(.share(.view, photo: false))) { request in
                try list(request, view: shared.view(request))
            }
        }
    }

    /// `{"places":[{"name","region","country","count","cover":{"id","thumbnail"},"query"}…]}`,
    /// most photos first, then by name; the cover is the place's newest photo the view sees.
    func list(_ request: HTTPRequest, view: PhotoView) throws -> HTTPResponse {
        guard view.showLocation else { return try photos.json(PlaceList(places: []), request) }
        let library = photos.library
        var entries: [PlaceList.Entry] = []
        for (place, placed) in places.all {
            let seen = placed.filter { view.sees($0.id, in: library) }
            guard let cover = seen.first else { continue }
            let thumbnail = PhotoRecord(cover, tileSize: photos.tileSize, commentCount: 0, options: view.options).thumbnail
            entries.append(PlaceList.Entry(name: place.city, region: place.region, country: place.country, count: seen.count,
                                           cover: PlaceList.Cover(id: cover.id, thumbnail: thumbnail),
                                           query: [place.city, place.country].filter { !$0.isEmpty }.joined(separator: " ")))
        }
        entries.sort { a, b in
            if a.count != b.count { return a.count > b.count }
            return (a.name, a.country) < (b.name, b.country)
        }
        return try photos.json(PlaceList(places: entries), request)
    }
}
