/// The answer to a form upload: where each file went.
struct FormUploadAnswer: Encodable {
    struct Photo: Encodable {
        /// The file's name as stored (without any folder the client named).
        var name: String
        /// In the photos folder; not told under a share link.
        var path: String?
        var id: Int?
        var duplicate: Bool
    }

    var photos: [Photo]
}
