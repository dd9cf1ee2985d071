/// `GET /folders`: `{"folders":[Folder…]}`.
struct FolderList: Encodable {
    let folders: [FolderRecord]
}
