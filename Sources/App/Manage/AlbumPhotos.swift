/// The body of `POST /albums/{id}/photos`: the photos, and where in the album's own order they go.
struct AlbumPhotos: Decodable {
    var ids: [Int]
    var position: Int?
}
