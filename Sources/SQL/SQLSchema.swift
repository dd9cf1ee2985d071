/// A named history of migrations; several schemas (the catalog, the comments) share one database.
public struct SQLSchema: Sendable {
    public let name: String
    public let migrations: [SQLMigration]
    /// For a database made before `schema_migrations` existed: returns the version it is at
    /// (for example from `PRAGMA user_version`), whose steps are then recorded without running.
    public let adoptExisting: (@Sendable (SQLConnection) throws -> Int)?

    /// A schema; versions must run 1, 2, 3 … without gaps.
    public init(name: String, migrations: [SQLMigration], adoptExisting: (@Sendable (SQLConnection) throws -> Int)? = nil) {
        precondition(migrations.map(\.version) == (0..<migrations.count).map { $0 + 1 },
                     "the migrations of \(name) must be numbered 1, 2, 3 … in order")
        self.name = name
        self.migrations = migrations
        self.adoptExisting = adoptExisting
    }

    /// The version this build brings a database to.
    public var latestVersion: Int { migrations.last?.version ?? 0 }
}
