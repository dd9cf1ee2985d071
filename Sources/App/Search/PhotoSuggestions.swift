import Library
import Search
import Synchronization

/// What `GET /search/suggest` offers, built from every listed photo's facts (its place, year,
/// month, camera and lens, folders) once per generation of the list and kept until it changes.
final class PhotoSuggestions: Sendable {
    let library: PhotoLibrary
    let places: PlaceNames
    private let kept = Mutex<(generation: Int, vocabulary: SuggestionVocabulary)?>(nil)

    init(library: PhotoLibrary, places: PlaceNames) {
        self.library = library
        self.places = places
    }

    /// The vocabulary of the list as it is now.
    var vocabulary: SuggestionVocabulary {
        let generation = library.generation
        if let kept = kept.withLock({ $0 }), kept.generation == generation { return kept.vocabulary }
        var vocabulary = SuggestionVocabulary()
        let places = places.index
        for photo in library.ordered(.id)?.photos ?? [] { Self.add(photo, to: &vocabulary, places: places) }
        kept.withLock { $0 = (generation, vocabulary) }
        return vocabulary
    }

    static func add(_ photo: Photo, to vocabulary: inout SuggestionVocabulary, places: PlaceIndex?) {
        let id = photo.id
        let facts = PhotoFacts(photo, places: places)
        if let day = facts.day {
            vocabulary.add(.year, text: String(day.year), photoID: id)
            let month = DateWords.monthNames[day.month - 1]
            vocabulary.add(.month, text: month.prefix(1).uppercased() + month.dropFirst() + " \(day.year)",
                           query: "\(month) \(day.year)", photoID: id)
        }
        for folder in photo.folder.split(separator: "/") { vocabulary.add(.folder, text: String(folder), photoID: id) }
        if !facts.camera.isEmpty { vocabulary.add(.camera, text: facts.camera, photoID: id) }
        if !facts.lens.isEmpty { vocabulary.add(.camera, text: facts.lens, photoID: id) }
        if let place = facts.place {
            for name in [place.city, place.region, place.country] where !name.isEmpty { vocabulary.add(.place, text: name, photoID: id) }
        }
    }
}
