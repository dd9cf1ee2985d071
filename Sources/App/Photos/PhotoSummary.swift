import Library
import Observability
import Synchronization

/// `GET /photos/summary` (and `/albums/{id}/summary`): a whole list in a few bytes a photo, for
/// laying out a grid of any size without fetching every record.
///
/// `{"total":N,"idRuns":[[first,count],…],"ratios":[…],"days":[…]}`: ids in the list's order as
/// runs of consecutive ids, then per photo its width / height (3 decimals; 0 while unknown) and
/// the day it was taken as days since 1970-01-01 (on the clock where it was taken). Built once
/// per catalog generation and list, and kept, with a strong ETag from its bytes, so every answer
/// after the first is a copy or a 304.
final class PhotoSummary: Sendable {
    struct Built: Sendable {
        let generation: Int
        let body: [UInt8]
        let etag: String
    }

    /// Lists whose summaries are kept at once (the library in each order, and recent albums).
    static let kept = 16

    private let library: any PhotoBrowsing
    private let built = Mutex<[String: Built]>([:])

    init(library: any PhotoBrowsing) { self.library = library }

    /// The summary of a list as it is now; nil for an album without photos.
    func current(_ order: PhotoOrder = .taken, scope: PhotoScope = .library) throws -> Built? {
        let generation = library.generation
        let key: String
        switch scope {
        case .library: key = order.rawValue
        case .album(let id): key = "\(id)/\(order.rawValue)"
        case .members, .sequence:
            // An album's photos change without the catalog's generation: built each time.
            guard let snapshot = library.ordered(order, scope: scope) else { return nil }
            let body = try JSONWriter.bytes(Self.body(snapshot.photos))
            return Built(generation: snapshot.generation, body: body, etag: "\"s" + ContentHash.hex(of: body) + "\"")
        }
        if let cached = built.withLock({ $0[key] }), cached.generation == generation { return cached }
        guard let snapshot = library.ordered(order, scope: scope) else { return nil }
        let body = try JSONWriter.bytes(Self.body(snapshot.photos))
        let fresh = Built(generation: snapshot.generation, body: body, etag: "\"s" + ContentHash.hex(of: body) + "\"")
        built.withLock { built in
            if built.count >= Self.kept { built = built.filter { $0.value.generation == fresh.generation } }
            built[key] = fresh
        }
        return fresh
    }

    /// The summary's members, in this order.
    struct Body: Encodable {
        let total: Int
        /// `[first id, count]` per run of consecutive ids.
        let idRuns: [[Int]]
        let ratios: [Double]
        let days: [Int]
    }

    static func body(_ photos: [Photo]) -> Body {
        var runs: [[Int]] = [], ratios: [Double] = [], days: [Int] = []
        ratios.reserveCapacity(photos.count)
        days.reserveCapacity(photos.count)
        var runStart = -1, runLength = 0
        for photo in photos {
            if runLength > 0 && photo.id == runStart + runLength {
                runLength += 1
            } else {
                if runLength > 0 { runs.append([runStart, runLength]) }
                runStart = photo.id
                runLength = 1
            }
            ratios.append(ratio(photo.width, photo.height))
            days.append(photo.date >= 0 ? photo.date / 86_400 : (photo.date - 86_399) / 86_400)
        }
        if runLength > 0 { runs.append([runStart, runLength]) }
        return Body(total: photos.count, idRuns: runs, ratios: ratios, days: days)
    }

    /// width / height rounded to three decimals (`1.333`, `0.75`, `1`: the writer spells the
    /// shortest decimal that reads back, so no more digits than that); 0 when unknown.
    static func ratio(_ width: Int, _ height: Int) -> Double {
        guard width > 0, height > 0 else { return 0 }
        return Double((width * 1000 + height / 2) / height) / 1000
    }
}
