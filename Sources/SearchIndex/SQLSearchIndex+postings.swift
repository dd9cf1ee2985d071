import SQL
import Search

// PostgreSQL's postings (`SearchPostings`): kept by the index's writers beside the words, read
// by its queries. A first search through the GIN index visited every matching photo's row in the
// table (7 to 10 ms of the server's CPU for 20,000 matches) and tested its words per pass; the
// postings of a word in every photo of 100,000 are 25 rows of 512 bytes, scored here.

extension SQLSearchIndex {
    /// The index's generation and the one its postings were last made whole at: equal while
    /// every write kept them.
    static let postingsState: SQLQuery = "SELECT g.n, b.n FROM search_generation g, search_postings_built b"

    /// Moves the generation, in a write's transaction (its first statement: writers take their
    /// turns at its row), and says whether this write keeps the postings: only when they were
    /// whole before it.
    static func keepsPostings(_ tx: SQLConnection) throws -> (kept: Bool, generation: Int64) {
        let generation = try tx.scalar("UPDATE search_generation SET n = n + 1 RETURNING n", as: Int64.self) ?? 0
        let built = try tx.scalar("SELECT n FROM search_postings_built", as: Int64.self)
        return (built == generation - 1, generation)
    }

    /// The tagged words the index holds now for `ids`, by photo.
    static func indexedWords(_ tx: SQLConnection, _ ids: [Int]) throws -> [Int: Set<String>] {
        var words: [Int: Set<String>] = [:]
        for row in try tx.query("""
            SELECT photo_id, array_to_string(tsvector_to_array(words), ' ') FROM search_photos
            WHERE photo_id = ANY(\(PostgresArrayLiteral.integers(ids))::bigint[])
            """) {
            let id: Int = try row.decode(0), text: String = try row.decode(1)
            words[id] = Set(text.split(separator: " ").map(String.init))
        }
        return words
    }

    /// One row of the postings.
    private struct Posting: Hashable, Comparable {
        var term: String
        var chunk: Int

        /// By word, in bytes' order (as `COLLATE "C"` has them), then chunk.
        static func < (a: Posting, b: Posting) -> Bool {
            if !a.term.utf8.elementsEqual(b.term.utf8) { return a.term.utf8.lexicographicallyPrecedes(b.term.utf8) }
            return a.chunk < b.chunk
        }
    }

    /// Moves the postings from the photos' words `before` to their words `after` (a photo absent
    /// from `after` is removed): reads each row a change touches once, and writes it once.
    static func updatePostings(_ tx: SQLConnection, from before: [Int: Set<String>], to after: [Int: Set<String>]) throws {
        var added: [Posting: [Int]] = [:], removed: [Posting: Set<Int>] = [:]
        for id in Set(before.keys).union(after.keys) {
            let old = before[id] ?? [], new = after[id] ?? []
            guard old != new else { continue }
            let (chunk, offset) = SearchPostings.place(id)
            for term in new.subtracting(old) { added[Posting(term: term, chunk: chunk), default: []].append(offset) }
            for term in old.subtracting(new) { removed[Posting(term: term, chunk: chunk), default: []].insert(offset) }
        }
        let touched = Set(added.keys).union(removed.keys).sorted()
        guard !touched.isEmpty else { return }
        var held: [Posting: [Int]] = [:]
        for row in try tx.query("""
            SELECT p.term, p.chunk, p.ids FROM unnest(\(PostgresArrayLiteral.text(touched.map(\.term)))::text[],
                                                      \(PostgresArrayLiteral.integers(touched.map(\.chunk)))::int[]) AS k(term, chunk)
            JOIN search_postings p ON p.term = k.term COLLATE "C" AND p.chunk = k.chunk
            """) {
            let term: String = try row.decode(0), chunk: Int = try row.decode(1), ids: [UInt8] = try row.decode(2)
            held[Posting(term: term, chunk: chunk)] = SearchPostings.decode(ids)
        }
        var written: [(Posting, [UInt8])] = [], emptied: [Posting] = []
        for posting in touched {
            var offsets = Set(held[posting] ?? [])
            offsets.subtract(removed[posting] ?? [])
            offsets.formUnion(added[posting] ?? [])
            if !offsets.isEmpty {
                written.append((posting, SearchPostings.encode(offsets.sorted())))
            } else if held[posting] != nil {
                emptied.append(posting)
            }
        }
        if !written.isEmpty {
            try tx.run("""
                INSERT INTO search_postings (term, chunk, ids)
                SELECT * FROM unnest(\(PostgresArrayLiteral.text(written.map { $0.0.term }))::text[],
                                     \(PostgresArrayLiteral.integers(written.map { $0.0.chunk }))::int[],
                                     \(PostgresArrayLiteral.bytes(written.map { $0.1 }))::bytea[])
                ON CONFLICT (term, chunk) DO UPDATE SET ids = excluded.ids
                """)
        }
        if !emptied.isEmpty {
            try tx.run("""
                DELETE FROM search_postings p
                USING unnest(\(PostgresArrayLiteral.text(emptied.map(\.term)))::text[],
                             \(PostgresArrayLiteral.integers(emptied.map(\.chunk)))::int[]) AS k(term, chunk)
                WHERE p.term = k.term COLLATE "C" AND p.chunk = k.chunk
                """)
        }
    }

    /// `scores(_:)` from the postings: one statement reads, for every term, each of its matches'
    /// words in each of their fields (a prefix as the range of words it starts, in bytes' order),
    /// saying of each row whether its word is the match's whole word. Each photo gets, per term,
    /// the best score of the rows it is in (a whole word twice its field's weight, a prefix once:
    /// `SearchRanking.score`), and the sum when every term found it.
    func postingScores(_ query: SearchQuery) throws -> [SearchScore] {
        var lows: [String] = [], highs: [String] = [], lookups: [(term: Int, weight: UInt8)] = []
        for (index, term) in query.terms.enumerated() {
            for match in term.matches {
                for field in SearchField.allCases where match.fields.contains(field) {
                    let word = Self.tag(field) + match.word
                    lows.append(word)
                    // No word holds U+0001 or U+10FFFF (letters and digits only): the first bound
                    // is the word alone, the second every word it starts.
                    highs.append(word + (match.prefix ? "\u{10FFFF}" : "\u{1}"))
                    lookups.append((index, UInt8(SearchRanking.weight(field))))
                }
            }
        }
        let rows = try database.query("""
            SELECT s.n, p.term = s.low, p.chunk, p.ids
            FROM unnest(\(PostgresArrayLiteral.text(lows))::text[], \(PostgresArrayLiteral.text(highs))::text[])
                 WITH ORDINALITY AS s(low, high, n)
            JOIN search_postings p ON p.term >= s.low COLLATE "C" AND p.term < s.high COLLATE "C"
            """)
        var chunks: [Int: [(lookup: Int, whole: Bool, ids: [UInt8])]] = [:]
        for row in rows {
            let lookup: Int = try row.decode(0), whole: Bool = try row.decode(1), chunk: Int = try row.decode(2)
            let ids: [UInt8] = try row.decode(3)
            chunks[chunk, default: []].append((lookup - 1, whole, ids))
        }
        let terms = query.terms.count, size = SearchPostings.chunkSize
        var found: [SearchScore] = []
        var best = [UInt8](repeating: 0, count: terms * size)
        for chunk in chunks.keys.sorted() {
            let hits = chunks[chunk]!
            // A chunk in which some term finds nothing holds no photo that every term finds.
            guard Set(hits.map { lookups[$0.lookup].term }).count == terms else { continue }
            for i in best.indices { best[i] = 0 }
            for hit in hits {
                let lookup = lookups[hit.lookup]
                let score = hit.whole ? 2 * lookup.weight : lookup.weight
                let base = lookup.term * size
                SearchPostings.forEachOffset(hit.ids) { offset in
                    if best[base + offset] < score { best[base + offset] = score }
                }
            }
            for offset in 0..<size {
                var total = 0
                for term in 0..<terms {
                    let score = best[term * size + offset]
                    if score == 0 { total = 0; break }
                    total += Int(score)
                }
                if total > 0 { found.append(SearchScore(photoID: chunk << SearchPostings.chunkBits | offset, score: total)) }
            }
        }
        return found
    }

    /// On PostgreSQL, builds the postings again from the words when a write has left them behind
    /// (a replica of an earlier build, during a rolling update, writes words alone; searches read
    /// the words meanwhile): under the generation's lock, so no write comes between, and without
    /// moving it, since the answers stay what they were. True when it built them. About as long as
    /// the schema step that first built them (seconds at 100,000 photos), so it is asked when the
    /// index is idle (`SearchIndexer`); a look at two numbers when there is nothing to do.
    @discardableResult
    public func rebuildPostingsIfBehind() throws -> Bool {
        guard database.engine == .postgres else { return false }
        // No row of `search_postings_built` (lost, say, by a partial restore) is behind too:
        // without one no write keeps the postings and every search reads the words.
        let state = try database.integers(Self.postingsState)
        guard state.count != 2 || state[0] != state[1] else { return false }
        return try database.transaction(.rebuildable) { tx in
            let generation = try tx.scalar("SELECT n FROM search_generation FOR UPDATE", as: Int64.self) ?? 0
            guard try tx.integers("SELECT n FROM search_postings_built") != [generation] else { return false }
            try tx.run("DELETE FROM search_postings")
            try tx.run(SQLQuery(SearchPostings.buildFromWords))
            try tx.run("DELETE FROM search_postings_built")
            try tx.run("INSERT INTO search_postings_built (n) VALUES (\(generation))")
            return true
        }
    }
}
