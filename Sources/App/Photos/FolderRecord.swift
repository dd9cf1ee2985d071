import Library

/// A folder as the README documents it:
/// `{"id","title","path","count","cover":{"id","thumbnail"},"from","to","link"}`.
struct FolderRecord: Encodable {
    struct Cover: Encodable {
        let id: Int
        let thumbnail: String
    }

    let id: Int
    let title: String
    let path: String
    let count: Int
    let cover: Cover
    let from: String
    let to: String
    let link: String

    /// `album` is a folder of the photos folder (the catalog's name for it).
    init(_ folder: Album) {
        id = folder.id
        title = folder.title
        path = folder.path
        count = folder.count
        cover = Cover(id: folder.cover.id, thumbnail: "/photos/\(folder.cover.id)/thumbnail.jpg?v=\(folder.cover.version)")
        from = folder.first.taken
        to = folder.last.taken
        link = "/folders/\(folder.id)"
    }
}
