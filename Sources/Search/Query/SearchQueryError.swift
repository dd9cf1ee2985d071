/// Why a query was refused before it was asked: the client's mistake, answered with a 400.
public enum SearchQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// More characters than `SearchQuery.Limits.characters`.
    case tooLong(limit: Int)
    /// More words than `SearchQuery.Limits.words`.
    case tooManyWords(limit: Int)
    /// Not UTF-8 (an unpaired surrogate among others), or holding NUL or another control.
    case malformed

    public var description: String {
        switch self {
        case .tooLong(let limit): return "The query is longer than \(limit) characters."
        case .tooManyWords(let limit): return "The query has more than \(limit) words."
        case .malformed: return "The query is not text: it must be UTF-8 without control characters."
        }
    }
}
