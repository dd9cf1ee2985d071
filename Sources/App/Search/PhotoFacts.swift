import Foundation
import Library
import Search

/// What search knows of a photo beyond its path: the day it was taken, camera and lens, and the
/// place its position falls in, read once from its record (`taken`, the `details` JSON).
struct PhotoFacts {
    var day: (year: Int, month: Int, day: Int)?
    var make = ""
    var model = ""
    var lens = ""
    var place: Place?

    init(_ photo: Photo, places: PlaceIndex?) {
        day = DateWords.day(photo.taken.prefix(10))
        guard let details = photo.details.flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) as? [String: Any] else { return }
        make = (details["make"] as? String)?.trimmingCharacters(in: .whitespaces) ?? ""
        model = (details["model"] as? String)?.trimmingCharacters(in: .whitespaces) ?? ""
        lens = (details["lens"] as? String)?.trimmingCharacters(in: .whitespaces) ?? ""
        if let places, let location = details["location"] as? [String: Any],
           let latitude = (location["latitude"] as? NSNumber)?.doubleValue,
           let longitude = (location["longitude"] as? NSNumber)?.doubleValue {
            place = places.place(latitude: latitude, longitude: longitude)
        }
    }

    /// Make and model as one name, the make once (many cameras repeat it: `Canon` `Canon EOS R5`).
    var camera: String {
        model.lowercased().hasPrefix(make.lowercased()) ? model : [make, model].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
