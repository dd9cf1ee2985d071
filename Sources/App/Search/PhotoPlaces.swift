import Library
import Search
import Synchronization

/// The places photos were taken in, each with its photos newest first, built from every listed
/// photo's position once per generation of the list (as `PhotoSuggestions` is) and kept until it
/// changes; a request counts among them the photos its view sees.
final class PhotoPlaces: Sendable {
    let library: any PhotoBrowsing
    let places: PlaceNames
    private let kept = Mutex<(generation: Int, places: [(place: Place, photos: [Photo])])?>(nil)

    init(library: any PhotoBrowsing, places: PlaceNames) {
        self.library = library
        self.places = places
    }

    /// Every place with a listed photo, each with its photos newest first.
    var all: [(place: Place, photos: [Photo])] {
        let generation = library.generation
        if let kept = kept.withLock({ $0 }), kept.generation == generation { return kept.places }
        var byPlace: [Place: [Photo]] = [:]
        let index = places.index
        for photo in library.ordered(.taken, scope: .library)?.photos ?? [] {
            guard let place = PhotoFacts(photo, places: index).place else { continue }
            byPlace[place, default: []].append(photo)
        }
        let built = byPlace.map { (place: $0.key, photos: $0.value.sorted(by: Self.newerFirst)) }
        kept.withLock { $0 = (generation, built) }
        return built
    }

    static func newerFirst(_ a: Photo, _ b: Photo) -> Bool {
        a.takenKey != b.takenKey ? a.takenKey > b.takenKey : a.id > b.id
    }
}
