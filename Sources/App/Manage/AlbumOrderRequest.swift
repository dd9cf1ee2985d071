import Library

/// `"order"` in `PATCH /albums/{id}`: the album's photos in the order given (`[3, 1, 2]`: those
/// not named follow as they were), or how it is shown (`"taken"`: by date taken; `"custom"`: in
/// its own order as it was kept).
enum AlbumOrderRequest: Decodable, Equatable {
    case photos([Int])
    case by(AlbumPhotoOrder)

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let ids = try? value.decode([Int].self) {
            self = .photos(ids)
            return
        }
        guard let text = try? value.decode(String.self), let order = AlbumPhotoOrder(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: value, debugDescription:
                "order is the album's photo ids in their new order, \"taken\" (by date taken) or \"custom\" (its own order)")
        }
        self = .by(order)
    }
}
