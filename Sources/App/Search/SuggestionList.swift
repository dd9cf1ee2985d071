import Search

/// `GET /search/suggest`'s answer.
struct SuggestionList: Encodable {
    let suggestions: [SearchSuggestion]
}
