/// A query as typed, made into terms by our own rules: no syntax of a search engine (quotes,
/// `*`, `NEAR`, `:`, `-`, SQL) means anything, every character is text, and the terms go to the
/// database as bound parameters or quoted words only.
///
/// Words are split on white space; a word that is a day (`2019-07-14`) is a day term, any other
/// is folded (`SearchFolding`) and each of its runs of letters and digits is a term: a year when
/// it is one (`2019`, also in `july-2019`), otherwise a word matched as a prefix in every field.
public struct SearchQuery: Sendable, Hashable {
    /// What a query may hold.
    public struct Limits: Sendable, Hashable {
        /// Characters of the query as typed; default 200.
        public var characters = 200
        /// Terms after splitting; default 20.
        public var words = 20

        public init(characters: Int = 200, words: Int = 20) {
            self.characters = characters
            self.words = words
        }
    }

    /// The terms, in the order typed, without repeats. Empty when nothing was typed but
    /// separators: such a query matches nothing.
    public var terms: [SearchTerm]

    public init(terms: [SearchTerm]) {
        self.terms = terms
    }

    /// The query of a request's raw bytes (already percent-decoded): refused unless UTF-8 without
    /// control characters.
    public static func parse(utf8 bytes: some Collection<UInt8>, limits: Limits = Limits()) throws(SearchQueryError) -> SearchQuery {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .malformed }
        return try parse(text, limits: limits)
    }

    /// The query of a string.
    public static func parse(_ text: String, limits: Limits = Limits()) throws(SearchQueryError) -> SearchQuery {
        guard text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) || $0 == "\t" }) else {
            throw .malformed
        }
        guard text.count <= limits.characters else { throw .tooLong(limit: limits.characters) }
        var terms: [SearchTerm] = []
        for word in text.split(whereSeparator: { $0.isWhitespace }) {
            for term in Self.terms(of: word) where !terms.contains(term) {
                terms.append(term)
                guard terms.count <= limits.words else { throw .tooManyWords(limit: limits.words) }
            }
        }
        return SearchQuery(terms: terms)
    }

    /// The query with every term limited to `fields` (`SearchTerm.limited(to:)`).
    public func limited(to fields: Set<SearchField>) -> SearchQuery {
        SearchQuery(terms: terms.map { $0.limited(to: fields) })
    }

    /// Whether some term can match nothing at all (all its fields were left out).
    public var isUnanswerable: Bool { terms.contains { $0.matches.isEmpty } }

    static let everyField = Set(SearchField.allCases)

    static func terms(of word: Substring) -> [SearchTerm] {
        if let day = DateWords.day(word) {
            let dayWord = DateWords.dayWord(year: day.year, month: day.month, day: day.day)
            return [SearchTerm(text: String(word), kind: .day(year: day.year, month: day.month, day: day.day),
                               matches: [.init(word: dayWord, fields: [.date], prefix: false)])]
        }
        return SearchFolding.words(word).map { folded in
            if let year = DateWords.year(folded) {
                // A year is the date's, or a file, folder or album name's whole word: never a
                // prefix of other digits, nor words in comments, cameras or places.
                return SearchTerm(text: folded, kind: .year(year),
                                  matches: [.init(word: folded, fields: [.date], prefix: false),
                                            .init(word: folded, fields: [.name, .album], prefix: false)])
            }
            let kind: SearchTerm.Kind = DateWords.month(folded).map { .month($0) } ?? .word
            return SearchTerm(text: folded, kind: kind, matches: [.init(word: folded, fields: everyField, prefix: true)])
        }
    }
}
