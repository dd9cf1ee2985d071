import Foundation
import Observability
import SQL

/// What the server does with the `database` setting before anything else starts.
public enum DatabaseStartup {
    /// Opens the databases: SQLite files in the data folder when `database` is empty, else the
    /// PostgreSQL server it names, connected once so an unreachable server or a refused login
    /// stops the start with a message naming the server. Schemas are migrated by the stores
    /// that open them, under the database's migration lock.
    public static func open(_ configuration: Configuration, logger: Logger) throws -> ApplicationDatabases {
        try FileManager.default.createDirectory(atPath: configuration.data, withIntermediateDirectories: true)
        guard !configuration.database.isEmpty else {
            let data = URL(fileURLWithPath: configuration.data)
            let comments = try SQLDatabase(.sqlite(path: data.appendingPathComponent("comments.sqlite").path), logger: logger.labeled("database"))
            // The catalog is learnt again from the folder if a crash of the machine loses its
            // last commits, so a scan of thousands of rows does not wait for an fsync each time.
            // The search index is written again from the catalog in the same way.
            var options = SQLDatabaseOptions()
            options.sqlite.synchronous = .normal
            var opened: [SQLDatabase] = [comments]
            do {
                let catalog = try SQLDatabase(.sqlite(path: data.appendingPathComponent("catalog.sqlite").path), options: options,
                                              logger: logger.labeled("database"))
                opened.append(catalog)
                let search = try SQLDatabase(.sqlite(path: data.appendingPathComponent("search.sqlite").path), options: options,
                                             logger: logger.labeled("database"))
                return ApplicationDatabases(catalog: catalog, comments: comments, search: search)
            } catch {
                for database in opened { database.close() }
                throw error
            }
        }
        guard let url = configuration.postgresURL else {
            throw ConfigurationError("database is not a usable PostgreSQL URL.")
        }
        try check(url)
        do {
            let database = try SQLDatabase(.postgres(url), options: options(configuration), logger: logger.labeled("database"))
            return ApplicationDatabases(catalog: database, comments: database, search: database)
        } catch let error as SQLError {
            throw DatabaseStartupError("database: \(error.message)")
        }
    }

    /// Connects once: the failure, named in libpq's words, is the whole message.
    static func check(_ url: PostgresURL) throws {
        var options = SQLDatabaseOptions()
        options.postgres.maxConnections = 1
        do {
            // The pool's own warning would only repeat the error.
            let database = try SQLDatabase(.postgres(url), options: options, logger: .disabled)
            database.close()
        } catch let error as SQLError {
            throw DatabaseStartupError("database: \(error.message)")
        }
    }

    /// A replica's pool: enough connections for the comment lane's threads and the background
    /// work beside them, and a short wait, so a stalled database turns into 503s, not queues.
    static func options(_ configuration: Configuration) -> SQLDatabaseOptions {
        var options = SQLDatabaseOptions()
        options.postgres.maxConnections = 10
        options.acquireTimeout = .seconds(5)
        return options
    }
}
