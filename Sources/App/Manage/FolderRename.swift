/// The body of `PATCH /folders/{id}`: the folder's new title.
struct FolderRename: Decodable { var title: String }
