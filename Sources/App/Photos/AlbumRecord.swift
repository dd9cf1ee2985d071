import Library

/// An Album as the README documents it:
/// `{"id","title","path","count","cover":{"id","thumbnail"},"from","to","link"}`.
struct AlbumRecord: Encodable {
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

    init(_ album: Album) {
        id = album.id
        title = album.title
        path = album.path
        count = album.count
        cover = Cover(id: album.cover.id, thumbnail: "/photos/\(album.cover.id)/thumbnail.jpg?v=\(album.cover.version)")
        from = album.first.taken
        to = album.last.taken
        link = "/albums/\(album.id)"
    }
}

/// `GET /albums`: `{"albums":[Album…]}`.
struct AlbumList: Encodable {
    let albums: [AlbumRecord]
}

/// `GET /albums/{id}`: the album's members, then a page of its photos as `GET /photos` pages.
struct AlbumPage: Encodable {
    let album: AlbumRecord
    let page: PhotoPage

    /// One object: both write their members into the same container, album first.
    func encode(to encoder: any Encoder) throws {
        try album.encode(to: encoder)
        try page.encode(to: encoder)
    }
}
