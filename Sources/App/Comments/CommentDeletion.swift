/// `{"id":…,"photoId":…}`: the data of a live `delete` event.
struct CommentDeletion: Encodable {
    let id: Int
    let photoId: Int
}
