import Observability
import Search

/// `GET /search`'s answer: the query as typed, how many photos match, a page of them as
/// `GET /photos` writes them, best match first, and the next page's URL (null on the last).
struct SearchPage: Encodable {
    let query: String
    let total: Int
    let photos: [PhotoRecord]
    let next: Nullable<String>
}

/// `GET /search/suggest`'s answer.
struct SuggestionList: Encodable {
    let suggestions: [SearchSuggestion]
}
