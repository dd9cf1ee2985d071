/// How well a photo's words answer a query, worked out here rather than by an engine, so that
/// SQLite and PostgreSQL put the same photos in the same order: for each term, its best match
/// among the photo's words, a whole word above a prefix, and a place, a date or a camera above a
/// name or a comment (what one types to find a photo is more often where and when than the words
/// said about it). Ties go to the newer photo, which is the caller's to break.
public enum SearchRanking {
    /// The photo's score for the query; 0 when some term matches none of its words.
    public static func score(_ query: SearchQuery, words: [SearchField: [String]]) -> Int {
        var total = 0
        for term in query.terms {
            var best = 0
            for match in term.matches {
                for field in match.fields {
                    for word in words[field] ?? [] {
                        if word == match.word {
                            best = max(best, 2 * weight(field))
                        } else if match.prefix && word.hasPrefix(match.word) {
                            best = max(best, weight(field))
                        }
                    }
                }
            }
            if best == 0 { return 0 }
            total += best
        }
        return total
    }

    /// One look-up of a term in the index that finds its matches of one score: the photos with
    /// a word of `fields` equal to `word` (or, with `prefix`, starting with it).
    public struct Pass: Sendable, Hashable {
        public var word: String
        public var fields: Set<SearchField>
        public var prefix: Bool
        public var score: Int
    }

    /// A term's look-ups, best score first: the first that finds a photo gives it the term's
    /// score `score(_:texts:)` would, so an engine answers ids alone and no photo's words are
    /// read. (A prefix look-up finds the whole words too, but after the look-up that scores them
    /// higher.)
    public static func passes(_ term: SearchTerm) -> [Pass] {
        var passes: [Pass] = []
        for match in term.matches {
            for (weight, fields) in Dictionary(grouping: match.fields, by: weight) {
                passes.append(Pass(word: match.word, fields: Set(fields), prefix: false, score: 2 * weight))
                if match.prefix { passes.append(Pass(word: match.word, fields: Set(fields), prefix: true, score: weight)) }
            }
        }
        return passes.sorted { $0.score > $1.score }
    }

    /// How much a field counts: a whole word scores twice its field's weight, a prefix once.
    public static func weight(_ field: SearchField) -> Int {
        switch field {
        case .place, .date, .camera: return 3
        case .name, .album: return 2
        case .comment: return 1
        }
    }
}
