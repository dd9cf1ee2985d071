import Observability

/// `GET /search`'s answer: the query as typed, how many photos match, a page of them as
/// `GET /photos` writes them, best match first, the next page's URL (null on the last), and
/// whether the index was still being filled (photos not yet indexed are not found).
struct SearchPage: Encodable {
    let query: String
    let total: Int
    let photos: [PhotoRecord]
    let next: Nullable<String>
    let partial: Bool
}
