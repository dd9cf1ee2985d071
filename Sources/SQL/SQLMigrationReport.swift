/// What `SQLDatabase.migrate` found and did.
public struct SQLMigrationReport: Sendable, Equatable {
    public let schema: String
    /// The version the database was at (after adoption).
    public let from: Int
    /// The version recorded now.
    public let to: Int
    /// Versions this call ran (empty when another process had run them, or none were due).
    public let applied: [Int]
    /// Versions recorded from `adoptExisting` without running.
    public let adopted: [Int]
}
