/// `GET /albums`: `{"albums":[Album…]}`, in the albums' order.
struct AlbumList: Encodable {
    let albums: [AlbumRecord]
}
