import SQL

/// One table of a backup: its columns as the source database ordered them, and every row.
public struct BackupTable: Sendable, Equatable {
    /// The store it belongs to (`catalog` or `comments`).
    public var store: String
    public var name: String
    public var columns: [String]
    /// The highest id the table's generated key has handed out (0 when it has none), so a
    /// restored database never hands out an id again, even one whose row was deleted.
    public var sequence: Int64
    public var rows: [[SQLValue]]
}
