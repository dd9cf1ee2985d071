import Foundation
import HTTP
import Library
import Observability
import Search
import SearchIndex

/// `GET /search?q=` and, under a share link, `GET /s/:token/search?q=`: the photos whose words
/// match every term of the query, best match first (`SearchRanking`), then the newest. What a
/// request sees bounds what is asked: a link's photos only, place words only where the view
/// shows where photos were taken, comment words only where it shows comments.
struct SearchRoutes<Photos: PhotoBrowsing & ImageServing>: Sendable {
    let indexer: SearchIndexer
    let photos: PhotoRoutes<Photos>
    let suggestions: PhotoSuggestions

    func register(on router: inout Router, shared: SharedRoutes<Photos>?) {
        let catalog = WorkLanes.catalog
        router.get("/search", lane: catalog, access: photos.rules(.library)) { request in
            try search(request, view: photos.libraryView)
        }
        router.get("/search/suggest", lane: catalog, access: photos.rules(.library)) { request in
            try suggest(request, view: photos.libraryView)
        }
        if let shared {
            let view = shared.control.rule(.share(.view, photo: false))
            router.get("/s/:token/search", lane: catalog, access: view) { request in try search(request, view: shared.view(request)) }
            router.get("/s/:token/search/suggest", lane: catalog, access: view) { request in
                try suggest(request, view: shared.view(request))
            }
        }
    }

    /// `{"suggestions":[{"kind","text","query","count"}…]}`: at most 10 places, years and months,
    /// cameras, folders and albums starting with what was typed, counted among the photos the view
    /// sees; places only where it shows locations, albums only to the library's own people (an
    /// album's title is not a link's to show).
    func suggest(_ request: HTTPRequest, view: PhotoView) throws -> HTTPResponse {
        let typed = try Self.queryText(request)
        do {
            _ = try SearchQuery.parse(typed)
        } catch {
            throw HTTPError(.badRequest, error.description)
        }
        var kinds = Set(SearchSuggestion.Kind.allCases)
        if !view.showLocation { kinds.remove(.place) }
        // The whole library sees every photo: counting its thousands one by one is the cost of a link's view only.
        let sees: ((Int) -> Bool)? = view.scope == .library ? nil : { view.sees($0, in: photos.library) }
        var vocabulary = suggestions.vocabulary
        if view.scope == .library {
            // Albums are few, and change without the photo list moving: read as asked.
            for (photo, titles) in (try? indexer.albumTitles()) ?? [:] {
                for title in titles { vocabulary.add(.album, text: title, photoID: photo) }
            }
        }
        let found = vocabulary.suggestions(for: typed, kinds: kinds, sees: sees)
        return try photos.json(SuggestionList(suggestions: found), request)
    }

    /// One page of the answer (`?limit=` and `?after=` as for `GET /photos`).
    func search(_ request: HTTPRequest, view: PhotoView) throws -> HTTPResponse {
        let typed = try Self.queryText(request)
        let query: SearchQuery
        do {
            query = try SearchQuery.parse(typed)
        } catch {
            throw HTTPError(.badRequest, error.description)
        }
        typealias Pages = PhotoRoutes<Photos>
        let limit = try Pages.number(request, "limit", range: 1...Pages.maxLimit,
                                     "limit must be a whole number from 1 to \(Pages.maxLimit).") ?? Pages.defaultLimit
        let after = try Pages.number(request, "after", range: 0...Int.max,
                                     "after must be a photo id (a whole number) from a previous page's next.")
        let ranked = try rank(query.limited(to: Self.fields(view)), view: view)
        var start = 0
        if let after {
            guard let position = ranked.firstIndex(of: after) else {
                throw HTTPError(.badRequest, "after must be the id of a photo this search found (from a previous page's next).")
            }
            start = position + 1
        }
        let pageIDs = ranked[start...].prefix(limit)
        let more = start + pageIDs.count < ranked.count
        let next = more ? pageIDs.last.map { "\(view.prefix)/search?q=\(Self.escaped(typed))&after=\($0)&limit=\(limit)" } : nil
        let options = view.options
        let page = pageIDs.compactMap { photos.library.photo($0) }
        let records = photos.library.probeSizes(page).map {
            PhotoRecord($0, tileSize: photos.tileSize, commentCount: view.comments ? photos.commentCount($0.id) : 0, options: options)
        }
        var response = try photos.json(SearchPage(query: typed, total: ranked.count, photos: records, next: Nullable(next),
                                                  partial: indexer.isPartial), request)
        if let next { response.headers.set("Link", "<\(next)>; rel=\"next\"") }
        return response
    }

    /// The ids of the photos the view sees that match, best first, then newest, then the higher
    /// id. Only the matches' date keys are read from the list, in one look; the page's records
    /// are the caller's to read.
    func rank(_ query: SearchQuery, view: PhotoView) throws -> [Int] {
        let library = photos.library
        let hits = try indexer.index.scores(query)
        var keys: [(score: Int, taken: Int64, id: Int)] = []
        keys.reserveCapacity(hits.count)
        for (hit, taken) in zip(hits, library.takenKeys(hits.map(\.photoID))) {
            guard let taken, view.sees(hit.photoID, in: library) else { continue }
            keys.append((hit.score, taken, hit.photoID))
        }
        keys.sort { x, y in
            if x.score != y.score { return x.score > y.score }
            if x.taken != y.taken { return x.taken > y.taken }
            return x.id > y.id
        }
        return keys.map(\.id)
    }

    /// The fields a view may match: no places where it hides locations, no comments where it
    /// hides them, and under a link no album titles (an album's title is its owner's).
    static func fields(_ view: PhotoView) -> Set<SearchField> {
        var fields = Set(SearchField.allCases)
        if !view.showLocation { fields.remove(.place) }
        if !view.comments { fields.remove(.comment) }
        if case .library = view.scope {} else { fields.remove(.album) }
        return fields
    }

    /// `?q=` decoded; 400 when its escapes are not UTF-8 (an unpaired surrogate among them).
    static func queryText(_ request: HTTPRequest) throws -> String {
        for pair in request.queryString.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == "q" else { continue }
            let spaced = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ") : ""
            guard let text = HTTPRequest.percentDecode(spaced) else {
                throw HTTPError(.badRequest, SearchQueryError.malformed.description)
            }
            return text
        }
        return ""
    }

    /// The query as a URL's query value.
    static func escaped(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
