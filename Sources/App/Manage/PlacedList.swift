/// What `POST /photos/move` and `/photos/copy` answer: where each photo went.
struct PlacedList: Encodable {
    struct Entry: Encodable { var from: Int; var id: Int?; var path: String }
    var photos: [Entry]
}
