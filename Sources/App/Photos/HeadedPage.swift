/// `GET /folders/{id}` and `GET /albums/{id}`: the folder's or album's members, then a page of
/// its photos as `GET /photos` pages.
struct HeadedPage: Encodable {
    let heading: any Encodable
    let page: PhotoPage

    /// One object: both write their members into the same container, the heading first.
    func encode(to encoder: any Encoder) throws {
        try heading.encode(to: encoder)
        try page.encode(to: encoder)
    }
}
