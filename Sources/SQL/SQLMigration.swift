/// One step of a schema, applied once, in order, and recorded in `schema_migrations`.
/// Append steps; never edit one that has shipped, because databases in the field ran it.
public struct SQLMigration: Sendable {
    /// 1, 2, 3 … within its schema.
    public let version: Int
    /// What the step does, in a few words; recorded beside the version and checked on later starts.
    public let name: String
    private let text: @Sendable (SQLDialect) -> String

    /// A step whose SQL depends on the engine only through dialect fragments.
    public init(version: Int, name: String, sql: @escaping @Sendable (SQLDialect) -> String) {
        self.version = version
        self.name = name
        self.text = sql
    }

    /// A step with the same SQL on both engines.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name, sql: { _ in sql })
    }

    /// A step written separately for each engine.
    public init(version: Int, name: String, sqlite: String, postgres: String) {
        self.init(version: version, name: name, sql: { $0.engine == .sqlite ? sqlite : postgres })
    }

    /// The SQL text for `dialect`'s engine.
    public func sql(for dialect: SQLDialect) -> String { text(dialect) }
}

extension SQLDatabase {
    /// The table that records every schema's applied versions.
    static let migrationsTable = "schema_migrations"
    /// Held while migrating, so replicas that start at once migrate once.
    static let migrationLock = SQLLockKey("schema-migrations", 0)

    /// Brings `schema` to its latest version. PostgreSQL: under a session advisory lock, each
    /// step in a transaction of its own, so replicas starting together wait for the first and then
    /// find nothing to do (and a replica that dies mid-way releases the lock with its session).
    /// SQLite: everything in one exclusive transaction. Throws `.schemaTooNew` for a database
    /// that a newer build has migrated further.
    @discardableResult
    public func migrate(_ schema: SQLSchema) throws -> SQLMigrationReport {
        try withConnection { connection in
            if engine == .postgres {
                try connection.run("SELECT pg_advisory_lock(\(Self.migrationLock.value))")
                defer { _ = try? connection.run("SELECT pg_advisory_unlock(\(Self.migrationLock.value))") }
                return try Self.migrateLocked(schema, connection, stepsInTransactions: true)
            }
            try connection.begin(.write, exclusive: true)
            do {
                let report = try Self.migrateLocked(schema, connection, stepsInTransactions: false)
                try connection.commit()
                return report
            } catch {
                connection.rollback()
                throw error
            }
        }
    }

    private static func migrateLocked(_ schema: SQLSchema, _ connection: SQLConnection, stepsInTransactions: Bool) throws -> SQLMigrationReport {
        let d = connection.dialect
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(migrationsTable) (
                schema_name TEXT NOT NULL,
                version \(d.bigint) NOT NULL,
                name TEXT NOT NULL,
                applied_at \(d.bigint) NOT NULL,
                PRIMARY KEY (schema_name, version))
            """)
        var recorded: [Int: String] = [:]
        for row in try connection.query("SELECT version, name FROM \(raw: migrationsTable) WHERE schema_name = \(schema.name)") {
            recorded[try row.decode(0)] = try row.decode(1)
        }
        func record(_ migration: SQLMigration) throws {
            try connection.run("""
                INSERT INTO \(raw: migrationsTable) (schema_name, version, name, applied_at)
                VALUES (\(schema.name), \(migration.version), \(migration.name), \(raw: d.unixTimeNow))
                """)
        }
        var adopted: [Int] = []
        if recorded.isEmpty, let adoptExisting = schema.adoptExisting {
            let existing = try adoptExisting(connection)
            guard existing <= schema.latestVersion else { throw tooNew(schema, existing) }
            for migration in schema.migrations where migration.version <= existing {
                try record(migration)
                recorded[migration.version] = migration.name
                adopted.append(migration.version)
            }
        }
        let found = recorded.keys.max() ?? 0
        guard found <= schema.latestVersion else { throw tooNew(schema, found) }
        for migration in schema.migrations where migration.version <= found {
            guard let name = recorded[migration.version] else {
                throw SQLError(.other, message: "the \(schema.name) schema has version \(found) but lacks step \(migration.version) (\(migration.name)); the database's history differs from this build's")
            }
            guard name == migration.name else {
                throw SQLError(.other, message: "step \(migration.version) of the \(schema.name) schema is \"\(name)\" in the database but \"\(migration.name)\" in this build")
            }
        }
        var applied: [Int] = []
        for migration in schema.migrations where migration.version > found {
            let step = {
                try connection.execute(migration.sql(for: d))
                try record(migration)
            }
            if stepsInTransactions { try connection.transaction(.write) { _ in try step() } } else { try step() }
            applied.append(migration.version)
        }
        return SQLMigrationReport(schema: schema.name, from: found, to: applied.last ?? found, applied: applied, adopted: adopted)
    }

    private static func tooNew(_ schema: SQLSchema, _ found: Int) -> SQLError {
        SQLError(.schemaTooNew, message: "the \(schema.name) schema is at version \(found), but this build knows versions up to \(schema.latestVersion): a newer build has used this database; run that build or a newer one")
    }
}
