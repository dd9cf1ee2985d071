import SQL
import Search

/// The search index in the catalog's database: one row of words per photo, written when the
/// photo or its comments change, asked for the photos that match every term of a query. Which
/// photos match is the engine's answer; their order is `SearchRanking`'s, the same on both.
public final class SQLSearchIndex: Sendable {
    public let database: SQLDatabase
    /// The last answers, while the index is unchanged.
    private let answers = SearchScoreCache(capacity: 8)

    /// Opens the index in `database`, migrating it.
    public init(database: SQLDatabase) throws {
        self.database = database
        try database.migrate(SearchSchema.schema)
    }

    /// Writes (or replaces) the words of photos.
    public func write(_ documents: [(photoID: Int, document: SearchDocument)]) throws {
        guard !documents.isEmpty else { return }
        // Written again from the catalog if a crash loses it (as `search.sqlite`'s NORMAL sync).
        try database.transaction(.rebuildable) { tx in
            guard tx.engine == .postgres else {
                try tx.run(Self.nextGeneration)
                for (id, document) in documents {
                    let texts = SearchField.allCases.map { document.text(of: $0) }
                    try tx.run("DELETE FROM search_photos WHERE rowid = \(id)")
                    try tx.run("""
                        INSERT INTO search_photos (rowid, place, date, camera, comment, name, album)
                        VALUES (\(id), \(texts[0]), \(texts[1]), \(texts[2]), \(texts[3]), \(texts[4]), \(texts[5]))
                        """)
                }
                return
            }
            // First, so that writers of the index (the replicas') take their turns here rather
            // than lock photos' rows in different orders; and so that each reads the words and
            // postings the one before it left.
            let postings = try Self.keepsPostings(tx)
            var written: [Int: [String]] = [:]
            for (id, document) in documents { written[id] = Self.taggedWords(document) }
            let ids = written.keys.sorted()
            let before = try postings.kept ? Self.indexedWords(tx, ids) : [:]
            // Most photos are queued again with the same words (their record's status or size
            // changed): such a row is left as it is, where an update would leave a dead row for
            // every search's scan to step over and a new entry per word in the GIN index's
            // pending list, which every search reads. One statement for the batch, its rows in
            // id order (so its row locks are taken in that order): a statement per photo was
            // 64 round trips to the server per batch.
            try tx.run("""
                INSERT INTO search_photos (photo_id, words)
                SELECT k.id, array_to_tsvector(array_remove(string_to_array(k.words, ' '), ''))
                FROM unnest(\(PostgresArrayLiteral.integers(ids))::bigint[],
                            \(PostgresArrayLiteral.text(ids.map { written[$0]!.joined(separator: " ") }))::text[])
                     WITH ORDINALITY AS k(id, words, n)
                ORDER BY k.n
                ON CONFLICT (photo_id) DO UPDATE SET words = excluded.words
                WHERE search_photos.words <> excluded.words
                """)
            if postings.kept {
                try Self.updatePostings(tx, from: before, to: written.mapValues { Set($0) })
                try tx.run("UPDATE search_postings_built SET n = \(postings.generation)")
            }
        }
    }

    /// Merges the index's pieces into one, on SQLite: FTS5 keeps each transaction's rows as a
    /// segment of their own (merged only now and then) and a query reads every segment. At
    /// 100,000 photos written 64 at a time, FTS5's one-word look-up took about 2 ms, and 0.5 ms
    /// after this, which itself took 0.8 s of CPU. PostgreSQL is left to autovacuum, which
    /// empties the GIN index's pending list: emptying it from here at 100,000 photos
    /// (`gin_clean_pending_list`) took a query's CPU from 14.6 to 11.6 ms but its p95 from 124 to
    /// 484 ms, the searches waiting for it.
    public func compact() throws {
        guard database.engine == .sqlite else { return }
        try database.run("INSERT INTO search_photos (search_photos) VALUES ('optimize')")
    }

    /// Forgets photos (removed from the catalog).
    public func remove(_ photoIDs: [Int]) throws {
        guard !photoIDs.isEmpty else { return }
        try database.transaction(.rebuildable) { tx in
            guard tx.engine == .postgres else {
                try tx.run(Self.nextGeneration)
                for id in photoIDs { try tx.run("DELETE FROM search_photos WHERE rowid = \(id)") }
                return
            }
            let postings = try Self.keepsPostings(tx)
            let ids = Array(Set(photoIDs)).sorted()
            if postings.kept { try Self.updatePostings(tx, from: Self.indexedWords(tx, ids), to: [:]) }
            try tx.run("DELETE FROM search_photos WHERE photo_id = ANY(\(PostgresArrayLiteral.integers(ids))::bigint[])")
            if postings.kept { try tx.run("UPDATE search_postings_built SET n = \(postings.generation)") }
        }
    }

    /// The ids of every photo the index holds, in order.
    public func photoIDs() throws -> [Int] {
        let sql = database.engine == .sqlite ? "SELECT rowid FROM search_photos ORDER BY rowid"
                                             : "SELECT photo_id FROM search_photos ORDER BY photo_id"
        return try database.query(SQLQuery(sql)).map { try $0.decode(0) }
    }

    /// The photos whose words match every term of `query`, each with `SearchRanking`'s score
    /// (none scoring 0), by id, read from the index alone and never from a photo's words. SQLite
    /// scores each matching row where it finds it (`phrase_score`, from where each phrase
    /// matched). PostgreSQL reads each term's postings and scores them here (`postingScores`);
    /// while a replica of an earlier build has left them behind, it finds the matches through
    /// its GIN index and scores each with one `CASE` per term over the scores the term can give
    /// (`SearchRanking.passes`), best first, tested on the row's own words. An answer is given
    /// again while no write of the index (from any process) has come between (`SearchScoreCache`).
    public func scores(_ query: SearchQuery) throws -> [SearchScore] {
        guard !query.terms.isEmpty, !query.isUnanswerable else { return [] }
        // Read before the answer: a write between the two gives an answer newer than its
        // generation, never older, and the next query, seeing the newer one, reads it again.
        // On PostgreSQL, with whether the postings were kept by every write so far.
        let state = try database.integers(database.engine == .sqlite ? "SELECT n FROM search_generation" : Self.postingsState)
        let generation = state.first ?? 0
        if let kept = answers.scores(for: query, at: generation) { return kept }
        let found = try state.count == 2 && state[0] == state[1] ? postingScores(query) : ranked(query)
        answers.keep(found, for: query, at: generation)
        return found
    }

    /// `scores(_:)` as the engine answers it from the words (FTS5; PostgreSQL's GIN index, when
    /// the postings are behind).
    func ranked(_ query: SearchQuery) throws -> [SearchScore] {
        if database.engine == .sqlite {
            let (expression, spec) = SearchMatchExpression.fts5Scored(query)
            let pairs = try database.integers("""
                SELECT rowid, phrase_score(search_photos, \(spec)) FROM search_photos
                WHERE search_photos MATCH \(expression) ORDER BY rowid
                """)
            var found: [SearchScore] = []
            found.reserveCapacity(pairs.count / 2)
            for i in stride(from: 0, to: pairs.count - 1, by: 2) where pairs[i + 1] > 0 {
                found.append(SearchScore(photoID: Int(pairs[i]), score: Int(pairs[i + 1])))
            }
            return found
        }
        // One statement: the whole query through the index, and per term a CASE of its passes,
        // best first, on each matching row's words (no look-up of its own). The row matched the
        // whole query, so each term one of its passes: the last is not tested, but what is left.
        var bindings: [any SQLEncodable] = [SearchMatchExpression.tsquery(query)]
        let terms = query.terms.map { term in
            let passes = SearchRanking.passes(term)
            let tested = passes.dropLast().map { pass in
                bindings.append(SearchMatchExpression.tsquery(pass))
                return "WHEN words @@ $\(bindings.count)::tsquery THEN \(pass.score)"
            }
            let left = passes.last.map { "\($0.score)" } ?? "0"
            return tested.isEmpty ? left : "CASE \(tested.joined(separator: " ")) ELSE \(left) END"
        }
        // Put in order here, not by the server: the rows come in the table's order, nearly the
        // ids', which a sort here takes in one pass, while PostgreSQL's sort of 20,000 matches
        // was a fifth of the statement's time, on the one server every replica asks.
        let pairs = try database.integers(SQLQuery("""
            SELECT photo_id, \(terms.joined(separator: " + ")) FROM search_photos WHERE words @@ $1::tsquery
            """, bindings))
        var found = stride(from: 0, to: pairs.count - 1, by: 2).map { i in
            SearchScore(photoID: Int(pairs[i]), score: Int(pairs[i + 1]))
        }
        found.sort { $0.photoID < $1.photoID }
        return found
    }

    /// Moves the index's generation, in a write's transaction.
    private static let nextGeneration: SQLQuery = "UPDATE search_generation SET n = n + 1"

    /// A photo's words as PostgreSQL holds them, each tagged with its field's letter.
    static func taggedWords(_ document: SearchDocument) -> [String] {
        SearchField.allCases.flatMap { field in (document.words[field] ?? []).map { tag(field) + $0 } }
    }

    /// The letter that tags a field's words in PostgreSQL's `tsvector`.
    static func tag(_ field: SearchField) -> String {
        switch field {
        case .place: return "p"
        case .date: return "d"
        case .camera: return "c"
        case .comment: return "m"
        case .name: return "n"
        case .album: return "a"
        }
    }
}
