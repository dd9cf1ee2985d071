/// The body of `POST /albums`: the new album's title.
struct NewAlbum: Decodable { var title: String }
