/// What `POST /folders` and `PATCH /folders/{id}` answer: the folder's id and path.
struct FolderPlace: Encodable { var id: Int?; var path: String }
