/// Everything a backup holds, in memory: what `BackupFile` writes and reads, and what a
/// restore puts into a database.
public struct BackupSnapshot: Sendable, Equatable {
    /// Unix seconds when it was taken.
    public var created: Int64
    /// Each schema's migration version in the source database.
    public var schemas: [String: Int]
    /// Whether the sessions are in it (`backup --sessions`).
    public var sessions: Bool
    public var tables: [BackupTable]

    /// The table called `name`, if the backup has it.
    public func table(_ name: String) -> BackupTable? { tables.first { $0.name == name } }

    /// Rows over every table.
    public var rowCount: Int { tables.reduce(0) { $0 + $1.rows.count } }
}
