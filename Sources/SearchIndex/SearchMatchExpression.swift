import Search

/// A query as each engine's full-text syntax, built from our terms only: every word is one
/// `SearchFolding` made (letters and digits), quoted, and the whole expression is bound as one
/// parameter, so nothing typed is ever read as syntax and the statement's text never changes.
enum SearchMatchExpression {
    /// FTS5: `({place date camera comment name} : "lisb" *) AND ({date} : "2019" OR {name} : "2019")`.
    static func fts5(_ query: SearchQuery) -> String {
        query.terms.map { term in
            "(" + term.matches.map { match in
                let columns = SearchField.allCases.filter(match.fields.contains).map(\.rawValue).joined(separator: " ")
                return "{\(columns)} : \(quoted(match.word, quote: "\""))" + (match.prefix ? " *" : "")
            }.joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }

    /// PostgreSQL `tsquery`: `('plisb':* | 'nlisb':* | …) & ('d2019' | 'n2019')`, over the words
    /// tagged by field.
    static func tsquery(_ query: SearchQuery) -> String {
        query.terms.map { term in
            "(" + term.matches.flatMap { match in
                SearchField.allCases.filter(match.fields.contains).map { field in
                    quoted(SQLSearchIndex.tag(field) + match.word, quote: "'") + (match.prefix ? ":*" : "")
                }
            }.joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }

    /// FTS5 with `phrase_score`'s spec: the query as `fts5(_:)` gives it but with each match a
    /// whole-word phrase and, when it matches prefixes, a prefix phrase, and the spec that scores
    /// them as `SearchRanking` does (each term a group; per column, twice the field's weight for
    /// the whole word, once for the prefix, nothing for a column the match may not look in).
    static func fts5Scored(_ query: SearchQuery) -> (expression: String, spec: String) {
        var spec: [String] = []
        var groups: [String] = []
        for (group, term) in query.terms.enumerated() {
            var made: [String] = []
            for match in term.matches {
                let columns = SearchField.allCases.filter(match.fields.contains).map(\.rawValue).joined(separator: " ")
                for prefix in match.prefix ? [false, true] : [false] {
                    made.append("{\(columns)} : \(quoted(match.word, quote: "\""))" + (prefix ? " *" : ""))
                    let weights: [Int] = SearchField.allCases.map { field in
                        match.fields.contains(field) ? (prefix ? 1 : 2) * SearchRanking.weight(field) : 0
                    }
                    spec.append(([group] + weights).map(String.init).joined(separator: " "))
                }
            }
            groups.append("(" + made.joined(separator: " OR ") + ")")
        }
        let expression = groups.joined(separator: " AND ")
        return (expression, spec.joined(separator: ";"))
    }

    /// PostgreSQL `tsquery`, one look-up: `'plisb':* | 'dlisb':* | 'clisb':*`.
    static func tsquery(_ pass: SearchRanking.Pass) -> String {
        SearchField.allCases.filter(pass.fields.contains).map { field in
            quoted(SQLSearchIndex.tag(field) + pass.word, quote: "'") + (pass.prefix ? ":*" : "")
        }.joined(separator: " | ")
    }

    /// `word` in `quote`s, a quote inside doubled and (for tsquery) a backslash escaped, though
    /// folded words hold neither.
    static func quoted(_ word: String, quote: Character) -> String {
        var text = String(quote)
        for character in word {
            if character == quote { text.append(quote) }
            if character == "\\" && quote == "'" { text.append("\\") }
            text.append(character)
        }
        text.append(quote)
        return text
    }
}
