import Search

/// `GET /places`'s answer: where the photos a view sees were taken, most photos first, each with
/// its newest photo as a cover and the query that finds its photos.
struct PlaceList: Encodable {
    struct Entry: Encodable {
        let name: String
        let region: String
        let country: String
        let count: Int
        let cover: Cover
        let query: String
    }

    struct Cover: Encodable {
        let id: Int
        let thumbnail: String
    }

    let places: [Entry]
}
