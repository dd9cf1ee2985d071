/// One word of a query and where it may match. A photo matches the query when every term has
/// at least one of its `matches` among the photo's words.
public struct SearchTerm: Sendable, Hashable {
    /// Where, and how, a term matches: the index's words of these fields equal to `word`, or
    /// starting with it.
    public struct Match: Sendable, Hashable {
        public var word: String
        public var fields: Set<SearchField>
        public var prefix: Bool

        public init(word: String, fields: Set<SearchField>, prefix: Bool) {
            self.word = word
            self.fields = fields
            self.prefix = prefix
        }
    }

    /// What the word was recognised as, for suggestions and the order of answers.
    public enum Kind: Sendable, Hashable {
        case word
        case year(Int)
        case month(Int)
        case day(year: Int, month: Int, day: Int)
    }

    /// The folded word, as typed.
    public var text: String
    public var kind: Kind
    /// Any one of these is enough.
    public var matches: [Match]

    public init(text: String, kind: Kind, matches: [Match]) {
        self.text = text
        self.kind = kind
        self.matches = matches
    }

    /// The term with the matches in `fields` left out: a term with none left matches nothing.
    public func limited(to fields: Set<SearchField>) -> SearchTerm {
        var term = self
        term.matches = matches.compactMap { match in
            let kept = match.fields.intersection(fields)
            return kept.isEmpty ? nil : Match(word: match.word, fields: kept, prefix: match.prefix)
        }
        return term
    }
}
