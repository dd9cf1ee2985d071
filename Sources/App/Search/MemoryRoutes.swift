import Foundation
import HTTP
import Library
import Search

/// `GET /memories?date=YYYY-MM-DD` and, under a share link, `GET /s/:token/memories`: the photos
/// the view sees that were taken on that month and day in earlier years ("on this day"), the day
/// being today where the server runs when none is given.
struct MemoryRoutes<Photos: PhotoBrowsing & ImageServing>: Sendable {
    let photos: PhotoRoutes<Photos>
    /// Today's date in the server's time zone.
    let today: @Sendable () -> (year: Int, month: Int, day: Int)

    init(photos: PhotoRoutes<Photos>, today: @escaping @Sendable () -> (year: Int, month: Int, day: Int) = MemoryRoutes.localToday) {
        self.photos = photos
        self.today = today
    }

    func register(on router: inout Router, shared: SharedRoutes<Photos>?) {
        router.get("/memories", lane: WorkLanes.catalog, access: photos.rules(.library)) { request in
            try memories(request, view: photos.libraryView)
        }
        if let shared {
            router.get("/s/:token/memories", lane: WorkLanes.catalog, access: shared.control.rule(.share(.view, photo: false))) { request in
                try memories(request, view: shared.view(request))
            }
        }
    }

    /// `{"date","years":[{"year","yearsAgo","photos":[Photo…]}…]}`, the latest year first.
    func memories(_ request: HTTPRequest, view: PhotoView) throws -> HTTPResponse {
        let day = try Self.day(request) ?? today()
        let library = photos.library
        var byYear: [Int: [Photo]] = [:]
        for photo in library.ordered(.taken, scope: .library)?.photos ?? [] {
            guard let taken = DateWords.day(photo.taken.prefix(10)), taken.month == day.month, taken.day == day.day,
                  taken.year < day.year, view.sees(photo.id, in: library) else { continue }
            byYear[taken.year, default: []].append(photo)
        }
        let options = view.options
        let years = byYear.keys.sorted(by: >).map { year in
            MemoryList.Year(year: year, yearsAgo: day.year - year, photos: library.probeSizes(byYear[year]!).map {
                PhotoRecord($0, tileSize: photos.tileSize, commentCount: view.comments ? photos.commentCount($0.id) : 0, options: options)
            })
        }
        let date = DateWords.dayWord(year: day.year, month: day.month, day: day.day)
        let spelled = "\(date.prefix(4))-\(date.dropFirst(4).prefix(2))-\(date.suffix(2))"
        return try photos.json(MemoryList(date: spelled, years: years), request)
    }

    /// `?date=`, or nil when absent; 400 when it is not a real day written `YYYY-MM-DD`.
    static func day(_ request: HTTPRequest) throws -> (year: Int, month: Int, day: Int)? {
        guard let text = request.query("date") else { return nil }
        guard let day = DateWords.day(text) else {
            throw HTTPError(.badRequest, "date must be a day written YYYY-MM-DD (such as 2019-07-14). Got \"\(text.prefix(40))\".")
        }
        return day
    }

    /// Today in the server's time zone.
    @Sendable static func localToday() -> (year: Int, month: Int, day: Int) {
        let parts = Calendar.current.dateComponents(in: .current, from: Date())
        return (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
