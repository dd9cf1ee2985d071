import SQL
import Search
import XCTest
@testable import SearchIndex

// What the index's tests compare `scores` with: every matching row's words, read and ranked by
// `SearchRanking.score(_:words:)`, the ranking's definition. A search never reads them.

/// A photo found by the index: its id and its words per field.
struct SearchHit: Sendable, Hashable {
    var photoID: Int
    var words: [SearchField: [String]]

    init(photoID: Int, words: [SearchField: [String]]) {
        self.photoID = photoID
        self.words = words
    }
}

extension SQLSearchIndex {
    /// The photos whose words match every term of `query`, by id; none for a query without
    /// terms or with a term that can match nothing.
    func matches(_ query: SearchQuery) throws -> [SearchHit] {
        guard !query.terms.isEmpty, !query.isUnanswerable else { return [] }
        if database.engine == .sqlite {
            let expression = SearchMatchExpression.fts5(query)
            let rows = try database.query("""
                SELECT rowid, place, date, camera, comment, name, album FROM search_photos
                WHERE search_photos MATCH \(expression) ORDER BY rowid
                """)
            return try rows.map { row in
                var words: [SearchField: [String]] = [:]
                for (column, field) in SearchField.allCases.enumerated() {
                    let text: String = try row.decode(column + 1)
                    words[field] = text.split(separator: " ").map(String.init)
                }
                return SearchHit(photoID: try row.decode(0), words: words)
            }
        }
        // PostgreSQL keeps the words alone, each tagged with its field's letter.
        let expression = SearchMatchExpression.tsquery(query)
        let rows = try database.query("""
            SELECT photo_id, array_to_string(tsvector_to_array(words), ' ') FROM search_photos
            WHERE words @@ \(expression)::tsquery ORDER BY photo_id
            """)
        let fields = Dictionary(uniqueKeysWithValues: SearchField.allCases.map { (Self.tag($0), $0) })
        return try rows.map { row in
            var words = Dictionary(uniqueKeysWithValues: SearchField.allCases.map { ($0, [String]()) })
            let tagged: String = try row.decode(1)
            for word in tagged.split(separator: " ") {
                let field = try XCTUnwrap(fields[String(word.prefix(1))], "a word tagged with no field's letter: \(word)")
                words[field, default: []].append(String(word.dropFirst()))
            }
            return SearchHit(photoID: try row.decode(0), words: words)
        }
    }
}
