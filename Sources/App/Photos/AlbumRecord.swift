import Library
import Observability

/// An album (a collection) as the README documents it:
/// `{"id","title","position","count","cover":{"id","thumbnail"}|null,"from","to","link"}`.
/// `count`, `from` and `to` are of its photos that are listed (not those in the trash).
struct AlbumRecord: Encodable {
    let id: Int
    let title: String
    let position: Int
    /// `taken`: its photos by date taken; `custom`: in its own order.
    let order: String
    let count: Int
    let cover: Nullable<FolderRecord.Cover>
    let from: Nullable<String>
    let to: Nullable<String>
    let link: String

    /// `photos`: the album's listed photos in the library's order.
    init(_ album: PhotoAlbum, photos: [Photo]) {
        id = album.id
        title = album.title
        position = album.position
        order = album.photoOrder.rawValue
        count = photos.count
        // The chosen cover while it is listed, else the newest photo that can be shown.
        let cover = album.coverID.flatMap { id in photos.first { $0.id == id } }
            ?? photos.last { $0.status != .failed } ?? photos.last
        self.cover = Nullable(cover.map { FolderRecord.Cover(id: $0.id, thumbnail: "/photos/\($0.id)/thumbnail.jpg?v=\($0.version)") })
        from = Nullable(photos.first?.taken)
        to = Nullable(photos.last?.taken)
        link = "/albums/\(album.id)"
    }
}
