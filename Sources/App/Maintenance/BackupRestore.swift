import Foundation
import SQL

/// Puts a backup into the databases the settings name: the schema made by the normal
/// migrations, every row with its own ids, and the generated keys moved past them.
public enum BackupRestore {
    /// Restores `snapshot`. Refuses, before writing, a backup of a schema newer than this build
    /// and a target that holds rows (unless `force`, which replaces them). Each database is filled
    /// in one transaction, so a failure leaves it as it was.
    public static func restore(_ snapshot: BackupSnapshot, into databases: ApplicationDatabases, force: Bool,
                               progress: (String) -> Void = { _ in }) throws {
        let known = BackupLayout.schemas
        for (name, version) in snapshot.schemas.sorted(by: { $0.key < $1.key }) {
            guard let schema = known[name] else {
                throw BackupFileError("The backup has a \(name) schema, which this build does not know: restore it with a newer photoscroll.")
            }
            guard version <= schema.latestVersion else {
                throw BackupFileError("The backup's \(name) schema is at version \(version), newer than this build knows (\(schema.latestVersion)): restore it with a newer photoscroll.")
            }
        }
        let stores = Set(BackupLayout.stores.map(\.name))
        if let stray = snapshot.tables.first(where: { !stores.contains($0.store) }) {
            throw BackupFileError("The backup's table \(stray.name) belongs to a store this build does not know (\(stray.store)).")
        }
        let groups = BackupLayout.groups(in: databases)
        if !force {
            var found: [String] = []
            for (database, stores) in groups {
                let counts = try database.withConnection { connection in
                    try stores.flatMap(\.tables).compactMap { table in try connection.rowCount(of: table).map { (table, $0) } }
                }
                found += counts.filter { $0.1 > 0 }.map { "\($0.0) (\($0.1) rows)" }
                if !found.isEmpty {
                    throw BackupFileError("The target is not empty: \(database.location) holds \(found.joined(separator: ", ")). Restore into an empty data folder or database, or add --force to replace what is there.")
                }
            }
        }
        for (database, stores) in groups {
            for store in stores { for schema in store.schemas { try prepare(schema, version: snapshot.schemas[schema.name] ?? 0, database) } }
            try database.transaction(.write) { connection in
                for store in stores {
                    // A table a later step makes is not there yet when the backup is older than this build.
                    for table in store.tables where try !connection.columns(of: table).isEmpty {
                        try connection.run("DELETE FROM \(raw: connection.quoted(table))")
                    }
                    for table in snapshot.tables where table.store == store.name {
                        try insert(table, connection)
                        progress("\(store.name): \(table.name), \(table.rows.count) rows")
                    }
                }
            }
            // Steps a newer build added after the backup was taken run now, over the restored rows.
            for store in stores { for schema in store.schemas { try database.migrate(schema) } }
        }
    }

    /// Brings a fresh database to the backup's version of `schema`, so its rows go into the
    /// tables they came from; one already further along is only brought to this build's version.
    private static func prepare(_ schema: SQLSchema, version: Int, _ database: SQLDatabase) throws {
        let recorded = (try? database.scalar("SELECT max(version) FROM schema_migrations WHERE schema_name = \(schema.name)", as: Int?.self)) ?? nil
        if (recorded ?? 0) == 0 && version < schema.latestVersion {
            try database.migrate(SQLSchema(name: schema.name, migrations: Array(schema.migrations.prefix(version)),
                                           adoptExisting: schema.adoptExisting))
        } else {
            try database.migrate(schema)
        }
    }

    private static func insert(_ table: BackupTable, _ connection: SQLConnection) throws {
        let target = Set(try connection.columns(of: table.name))
        guard !target.isEmpty else { throw BackupFileError("This build's schema has no table \(table.name), which the backup holds.") }
        if let missing = table.columns.first(where: { !target.contains($0) }) {
            throw BackupFileError("The backup's table \(table.name) has a column \(missing), which this build's schema lacks.")
        }
        // Many rows a statement: one round trip per row made a move to PostgreSQL wait on the network.
        let width = max(1, table.columns.count)
        let perStatement = max(1, 900 / width)
        let names = table.columns.map(connection.quoted).joined(separator: ", ")
        func statement(rows: Int) -> String {
            let tuples = (0..<rows).map { row in "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ", ") + ")" }
            return "INSERT INTO \(connection.quoted(table.name)) (\(names)) VALUES " + tuples.joined(separator: ", ")
        }
        var start = 0
        while start < table.rows.count {
            let batch = table.rows[start..<min(start + perStatement, table.rows.count)]
            var query = SQLQuery(statement(rows: batch.count))
            query.bindings = batch.flatMap { $0 }
            try connection.run(query)
            start += batch.count
        }
        try connection.advanceSequence(of: table.name, past: table.sequence)
    }
}
