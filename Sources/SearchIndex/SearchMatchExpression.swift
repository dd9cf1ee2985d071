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
