import Library
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

    private let catalog: PhotoCatalog
    private let built = Mutex<[String: Built]>([:])

    init(catalog: PhotoCatalog) { self.catalog = catalog }

    /// The summary of a list as it is now; nil for an album without photos.
    func current(_ order: PhotoOrder = .taken, scope: PhotoScope = .library) -> Built? {
        let generation = catalog.generation
        let key: String
        switch scope {
        case .library: key = order.rawValue
        case .album(let id): key = "\(id)/\(order.rawValue)"
        }
        if let cached = built.withLock({ $0[key] }), cached.generation == generation { return cached }
        guard let snapshot = catalog.ordered(order, scope: scope) else { return nil }
        let body = Array(Self.json(snapshot.photos).utf8)
        let fresh = Built(generation: snapshot.generation, body: body, etag: "\"s" + ContentHash.hex(of: body) + "\"")
        built.withLock { built in
            if built.count >= Self.kept { built = built.filter { $0.value.generation == fresh.generation } }
            built[key] = fresh
        }
        return fresh
    }

    static func json(_ photos: [Photo]) -> String {
        var runs = "", ratios = "", days = ""
        runs.reserveCapacity(64)
        ratios.reserveCapacity(photos.count * 6)
        days.reserveCapacity(photos.count * 6)
        var runStart = -1, runLength = 0
        for (i, photo) in photos.enumerated() {
            if runLength > 0 && photo.id == runStart + runLength {
                runLength += 1
            } else {
                if runLength > 0 { runs += (runs.isEmpty ? "" : ",") + "[\(runStart),\(runLength)]" }
                runStart = photo.id
                runLength = 1
            }
            if i > 0 {
                ratios += ","
                days += ","
            }
            ratios += ratio(photo.width, photo.height)
            days += String(photo.date >= 0 ? photo.date / 86_400 : (photo.date - 86_399) / 86_400)
        }
        if runLength > 0 { runs += (runs.isEmpty ? "" : ",") + "[\(runStart),\(runLength)]" }
        return "{\"total\":\(photos.count),\"idRuns\":[\(runs)],\"ratios\":[\(ratios)],\"days\":[\(days)]}"
    }

    /// width / height to three decimals, trailing zeros dropped: `1.333`, `0.75`, `1`; `0` when unknown.
    static func ratio(_ width: Int, _ height: Int) -> String {
        guard width > 0, height > 0 else { return "0" }
        let thousandths = (width * 1000 + height / 2) / height
        var text = String(thousandths / 1000)
        var fraction = thousandths % 1000
        guard fraction > 0 else { return text }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let padded = String(fraction)
        text += "." + String(repeating: "0", count: digits - padded.count) + padded
        return text
    }
}
