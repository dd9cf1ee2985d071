/// Each album's photos (positions in the published list), in the library's order.
struct AlbumContents: Sendable {
    var generation: Int
    var identityVersion: Int
    var lists: [Int: [Int32]]
}
