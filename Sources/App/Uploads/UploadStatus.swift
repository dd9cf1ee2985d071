/// `GET /uploads/{id}`.
struct UploadStatus: Encodable {
    struct PhotoPlace: Encodable {
        var id: Int?
        /// In the photos folder; not told under a share link.
        var path: String?
    }

    var id: String
    var offset: Int
    var length: Int
    var complete: Bool
    var expires: String?
    var photo: PhotoPlace?
    var duplicate: Bool
}
