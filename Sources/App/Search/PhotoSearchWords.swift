import Foundation
import Library
import Search

/// A photo's search words from what the catalog knows of it: its path (folders and file name),
/// the day it was taken, the camera and lens and the place of its `details`, and its comments.
enum PhotoSearchWords {
    static func document(_ photo: Photo, comments: [String], places: PlaceIndex?) -> SearchDocument {
        var document = SearchDocument()
        document.addPath(photo.relativePath)
        if let day = day(photo.taken) { document.addDate(year: day.year, month: day.month, day: day.day) }
        if let details = photo.details.flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) as? [String: Any] {
            for key in ["make", "model", "lens"] {
                if let text = details[key] as? String { document.add(text, to: .camera) }
            }
            if let places, let location = details["location"] as? [String: Any],
               let latitude = (location["latitude"] as? NSNumber)?.doubleValue,
               let longitude = (location["longitude"] as? NSNumber)?.doubleValue,
               let place = places.place(latitude: latitude, longitude: longitude) {
                document.addPlace(place)
            }
        }
        for text in comments { document.add(text, to: .comment) }
        return document
    }

    /// The calendar day of an RFC 3339 date taken (`2019-07-14T…`), as the photo's clock read it.
    static func day(_ taken: String) -> (year: Int, month: Int, day: Int)? {
        DateWords.day(taken.prefix(10))
    }
}

extension Configuration {
    /// Where the GeoNames tables are read from: `placeNames`, else `<data>/geonames`.
    var placeNamesFolder: URL {
        placeNames.isEmpty ? URL(fileURLWithPath: data).appendingPathComponent("geonames") : URL(fileURLWithPath: placeNames)
    }
}
