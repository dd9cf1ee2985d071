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

    /// One suggestion a photo falls under.
    private struct Item {
        var kind: SearchSuggestion.Kind
        var text: String
        var query: String?
    }

    private struct Kept {
        var generation: Int
        var sources: [Source]
        /// Each source's items, by position in `sources`.
        var items: [[Item]]
        var vocabulary: SuggestionVocabulary
    }

    let library: any PhotoBrowsing
    let places: PlaceNames
    private let kept = Mutex<Kept?>(nil)
    /// Held while the vocabulary is built: one build at a time (seconds of work at 100,000
    /// photos), never made twice at once.
    let building = Mutex(())

    init(library: any PhotoBrowsing, places: PlaceNames) {
        self.library = library
        self.places = places
    }

    /// The vocabulary of the list as it is now. The list's generation moves with every change a
    /// reader could see, many of which (a photo's tiles built, its status) no suggestion depends
    /// on; reading every photo's details and place again for each of those took about a second
    /// at 10,000 photos, so the sources are compared first and the vocabulary kept when they are
    /// the same.
    ///
    /// While a build runs elsewhere (most often on the index's thread, at its low priority, once
    /// the photos changed), the vocabulary kept answers at once, a change behind: at 100,000
    /// photos on a loaded machine such a build took from a fraction of a second (comparing every
    /// photo's facts) to minutes (reading them all again), and thread dumps showed every
    /// suggestion waiting for it. Only a first build, with nothing kept, is waited for.
    var vocabulary: SuggestionVocabulary {
        if let current = current { return current }
        if let fresh = building.withLockIfAvailable({ _ in current ?? built() }) { return fresh }
        if let kept = kept.withLock({ $0?.vocabulary }) { return kept }
        return building.withLock { _ in current ?? built() }
    }

    /// The vocabulary kept, when the list has not moved since it was built.
    private var current: SuggestionVocabulary? {
        let generation = library.generation
        return kept.withLock { $0?.generation == generation ? $0?.vocabulary : nil }
    }

    private func built() -> SuggestionVocabulary {
        let previous = kept.withLock { $0 }
        guard let listed = library.ordered(.id, scope: .library) else { return SuggestionVocabulary() }
        let sources = listed.photos.map(Source.init)
        if let previous, previous.sources == sources {
            kept.withLock { if let current = $0, current.generation < listed.generation { $0?.generation = listed.generation } }
            return previous.vocabulary
        }
        // A photo whose source is unchanged keeps its items: reading its details and finding its
        // place again is most of a build.
        var known: [Int: Int] = [:]
        if let previous { for (position, source) in previous.sources.enumerated() { known[source.id] = position } }
        let places = places.index
        var vocabulary = SuggestionVocabulary()
        var items: [[Item]] = []
        items.reserveCapacity(sources.count)
        for (photo, source) in zip(listed.photos, sources) {
            let photoItems: [Item]
            if let previous, let position = known[source.id], previous.sources[position] == source {
                photoItems = previous.items[position]
            } else {
                photoItems = Self.items(of: photo, places: places)
            }
            for item in photoItems { vocabulary.add(item.kind, text: item.text, query: item.query, photoID: photo.id) }
            items.append(photoItems)
        }
        kept.withLock { current in
            if current.map({ $0.generation <= listed.generation }) ?? true {
                current = Kept(generation: listed.generation, sources: sources, items: items, vocabulary: vocabulary)
            }
        }
        return vocabulary
    }

    private static func items(of photo: Photo, places: PlaceIndex?) -> [Item] {
        var items: [Item] = []
        let facts = PhotoFacts(photo, places: places)
        if let day = facts.day {
            items.append(Item(kind: .year, text: String(day.year)))
            let month = DateWords.monthNames[day.month - 1]
            items.append(Item(kind: .month, text: month.prefix(1).uppercased() + month.dropFirst() + " \(day.year)",
                              query: "\(month) \(day.year)"))
        }
        for folder in photo.folder.split(separator: "/") { items.append(Item(kind: .folder, text: String(folder))) }
        if !facts.camera.isEmpty { items.append(Item(kind: .camera, text: facts.camera)) }
        if !facts.lens.isEmpty { items.append(Item(kind: .camera, text: facts.lens)) }
        if let place = facts.place {
            for name in [place.city, place.region, place.country] where !name.isEmpty { items.append(Item(kind: .place, text: name)) }
        }
        return items
    }
}
