/// Prepared statements of one connection by SQL text, least recently used dropped first.
///
/// Parsing and planning is most of the cost of a small query, so each text is prepared once per
/// connection. The cap only matters if a caller builds statement text per call, which the
/// module's docs tell it not to; then the cache stays bounded instead of growing without end.
struct StatementCache<Statement> {
    private struct Entry {
        var statement: Statement
        var lastUse: UInt64
    }

    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    /// Statements prepared because the text was not cached.
    private(set) var prepares = 0
    /// Lookups that found the text cached.
    private(set) var hits = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a statement cache holds at least one statement")
        self.capacity = capacity
    }

    var count: Int { entries.count }

    /// The statement for `sql`, preparing it with `prepare` when missing; `evicted` gets each
    /// statement pushed out (to finalize or deallocate it).
    mutating func statement(for sql: String, prepare: () throws -> Statement, evicted: (Statement) -> Void) rethrows -> Statement {
        clock += 1
        if var entry = entries[sql] {
            hits += 1
            entry.lastUse = clock
            entries[sql] = entry
            return entry.statement
        }
        let statement = try prepare()
        prepares += 1
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            evicted(oldest.value.statement)
        }
        entries[sql] = Entry(statement: statement, lastUse: clock)
        return statement
    }

    /// Forgets `sql` (its statement went stale); returns the statement so it can be released.
    mutating func remove(_ sql: String) -> Statement? {
        entries.removeValue(forKey: sql)?.statement
    }

    /// Empties the cache, handing every statement to `body`.
    mutating func removeAll(_ body: (Statement) -> Void) {
        for entry in entries.values { body(entry.statement) }
        entries.removeAll()
    }
}
