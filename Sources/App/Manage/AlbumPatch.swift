/// The body of `PATCH /albums/{id}`: `cover` absent and `cover: null` mean different things.
struct AlbumPatch: Decodable {
    var title: String?
    var cover: Int??
    var position: Int?
    var order: AlbumOrderRequest?

    enum Keys: String, CodingKey { case title, cover, position, order }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        if c.contains(.cover) { cover = .some(try c.decodeNil(forKey: .cover) ? nil : try c.decode(Int.self, forKey: .cover)) }
        position = try c.decodeIfPresent(Int.self, forKey: .position)
        order = try c.decodeIfPresent(AlbumOrderRequest.self, forKey: .order)
    }
}
