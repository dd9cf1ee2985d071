import Library
import Search
import Synchronization

/// What `GET /search/suggest` offers, built from every listed photo's facts (its place, year,
/// month, camera and lens, folders) and kept until one of those facts changes.
final class PhotoSuggestions: Sendable {
    /// What a photo's suggestions are made from: equal sources offer equal suggestions.
    private struct Source: Equatable {
        var id: Int
        var taken: String
        var folder: Substring
        var details: String?

        init(_ photo: Photo) {
            id = photo.id
            taken = photo.taken
            folder = photo.folder
            details = photo.details
        }
    }

    private struct Kept {
        var generation: Int
        var sources: [Source]
        var vocabulary: SuggestionVocabulary
    }

    let library: PhotoLibrary
    let places: PlaceNames
    private let kept = Mutex<Kept?>(nil)

    init(library: PhotoLibrary, places: PlaceNames) {
        self.library = library
        self.places = places
    }

    /// The vocabulary of the list as it is now. The list's generation moves with every change a
    /// reader could see, many of which (a photo's tiles built, its status) no suggestion depends
    /// on; reading every photo's details and place again for each of those took about a second
    /// at 10,000 photos, so the sources are compared first and the vocabulary kept when they are
    /// the same.
    var vocabulary: SuggestionVocabulary {
        let generation = library.generation
        let previous = kept.withLock { $0 }
        if let previous, previous.generation == generation { return previous.vocabulary }
        guard let listed = library.ordered(.id) else { return SuggestionVocabulary() }
        let sources = listed.photos.map(Source.init)
        if let previous, previous.sources == sources {
            kept.withLock { if let current = $0, current.generation < listed.generation { $0?.generation = listed.generation } }
            return previous.vocabulary
        }
        var vocabulary = SuggestionVocabulary()
        let places = places.index
        for photo in listed.photos { Self.add(photo, to: &vocabulary, places: places) }
        kept.withLock { current in
            if current.map({ $0.generation <= listed.generation }) ?? true {
                current = Kept(generation: listed.generation, sources: sources, vocabulary: vocabulary)
            }
        }
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
