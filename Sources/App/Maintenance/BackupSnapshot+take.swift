import Foundation
import SQL

extension BackupSnapshot {
    /// Reads every table of every store while servers go on writing: one snapshot transaction
    /// per database (each SQLite file; the one PostgreSQL database, REPEATABLE READ READ ONLY),
    /// so each database's tables agree with one another. Brings the schemas to this build's
    /// versions first, as any store opening them does. `progress` hears one line per table.
    public static func take(from databases: ApplicationDatabases, sessions: Bool, now: Int64,
                            progress: (String) -> Void = { _ in }) throws -> BackupSnapshot {
        var snapshot = BackupSnapshot(created: now, schemas: [:], sessions: sessions, tables: [])
        for (database, stores) in BackupLayout.groups(in: databases) {
            for store in stores { for schema in store.schemas { try database.migrate(schema) } }
            let (versions, tables) = try database.transaction(.snapshot) { connection in
                var versions: [String: Int] = [:]
                for row in try connection.query("SELECT schema_name, max(version) FROM schema_migrations GROUP BY schema_name") {
                    versions[try row.decode(0, as: String.self)] = try row.decode(1, as: Int.self)
                }
                var tables: [BackupTable] = []
                for store in stores {
                    for name in store.tables where sessions || !BackupLayout.sessionTables.contains(name) {
                        tables.append(try read(name, store: store.name, connection))
                    }
                }
                return (versions, tables)
            }
            for store in stores { for schema in store.schemas { snapshot.schemas[schema.name] = versions[schema.name] ?? 0 } }
            for table in tables { progress("\(table.store): \(table.name), \(table.rows.count) rows") }
            snapshot.tables += tables
        }
        return snapshot
    }

    private static func read(_ name: String, store: String, _ connection: SQLConnection) throws -> BackupTable {
        let columns = try connection.columns(of: name)
        guard !columns.isEmpty else { throw BackupFileError("The database has no table \(name), which this build's schema makes.") }
        let list = columns.map(connection.quoted).joined(separator: ", ")
        let rows = try connection.query("SELECT \(raw: list) FROM \(raw: connection.quoted(name)) ORDER BY 1").map(\.values)
        return BackupTable(store: store, name: name, columns: columns, sequence: try connection.sequence(of: name), rows: rows)
    }
}
