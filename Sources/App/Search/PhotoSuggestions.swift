import Foundation
import Library
import Search
import Synchronization

/// What `GET /search/suggest` offers, built from every listed photo's facts (its place, year,
/// month, camera and lens, folders) once per generation of the list and kept until it changes.
final class PhotoSuggestions: Sendable {
    let library: PhotoLibrary
    let places: PlaceIndex?
    private let kept = Mutex<(generation: Int, vocabulary: SuggestionVocabulary)?>(nil)

    init(library: PhotoLibrary, places: PlaceIndex?) {
        self.library = library
        self.places = places
    }

    /// The vocabulary of the list as it is now.
    var vocabulary: SuggestionVocabulary {
        let generation = library.generation
        if let kept = kept.withLock({ $0 }), kept.generation == generation { return kept.vocabulary }
        var vocabulary = SuggestionVocabulary()
        for photo in library.ordered(.id)?.photos ?? [] { Self.add(photo, to: &vocabulary, places: places) }
        kept.withLock { $0 = (generation, vocabulary) }
        return vocabulary
    }

    static func add(_ photo: Photo, to vocabulary: inout SuggestionVocabulary, places: PlaceIndex?) {
        let id = photo.id
        if let day = PhotoSearchWords.day(photo.taken) {
            vocabulary.add(.year, text: String(day.year), photoID: id)
            let month = DateWords.monthNames[day.month - 1]
            vocabulary.add(.month, text: month.prefix(1).uppercased() + month.dropFirst() + " \(day.year)",
                           query: "\(month) \(day.year)", photoID: id)
        }
        for folder in photo.folder.split(separator: "/") { vocabulary.add(.folder, text: String(folder), photoID: id) }
        guard let details = photo.details.flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) as? [String: Any] else { return }
        let make = (details["make"] as? String)?.trimmingCharacters(in: .whitespaces) ?? ""
        let model = (details["model"] as? String)?.trimmingCharacters(in: .whitespaces) ?? ""
        // Many cameras repeat the make in the model (`Canon` `Canon EOS R5`).
        let camera = model.lowercased().hasPrefix(make.lowercased()) ? model : [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        if !camera.isEmpty { vocabulary.add(.camera, text: camera, photoID: id) }
        if let lens = details["lens"] as? String, !lens.isEmpty { vocabulary.add(.camera, text: lens, photoID: id) }
        if let places, let location = details["location"] as? [String: Any],
           let latitude = (location["latitude"] as? NSNumber)?.doubleValue,
           let longitude = (location["longitude"] as? NSNumber)?.doubleValue,
           let place = places.place(latitude: latitude, longitude: longitude) {
            for name in [place.city, place.region, place.country] where !name.isEmpty { vocabulary.add(.place, text: name, photoID: id) }
        }
    }
}
