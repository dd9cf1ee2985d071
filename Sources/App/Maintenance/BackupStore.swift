import SQL

/// One database of the SQLite layout (a file in the data folder), with the schemas and the
/// tables it holds. On PostgreSQL every store lives in the one database.
struct BackupStore: Sendable {
    /// `catalog` (catalog.sqlite) or `comments` (comments.sqlite).
    let name: String
    let schemas: [SQLSchema]
    /// Every table the schemas make, in the order a restore fills them.
    let tables: [String]
}
