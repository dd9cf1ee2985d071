import Library
import Search

/// A photo's search words from what the catalog knows of it: its path (folders and file name),
/// the day it was taken, the camera and lens and the place of its `details`, its comments, and
/// the titles of the albums it is in.
enum PhotoSearchWords {
    static func document(_ photo: Photo, comments: [String], albums: [String] = [], places: PlaceIndex?) -> SearchDocument {
        var document = SearchDocument()
        document.addPath(photo.relativePath)
        for title in albums { document.add(title, to: .album) }
        let facts = PhotoFacts(photo, places: places)
        if let day = facts.day { document.addDate(year: day.year, month: day.month, day: day.day) }
        for text in [facts.make, facts.model, facts.lens] { document.add(text, to: .camera) }
        if let place = facts.place { document.addPlace(place) }
        for text in comments { document.add(text, to: .comment) }
        return document
    }
}
