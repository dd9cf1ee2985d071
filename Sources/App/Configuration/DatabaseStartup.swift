import SQL

/// What the server does with the `database` setting before anything else starts.
public enum DatabaseStartup {
    /// Nothing for SQLite in the data folder. For a PostgreSQL URL: connects once, so an
    /// unreachable server or a refused login stops the start with a message naming the server.
    /// This build keeps the catalog and comments in SQLite only, so a reachable server stops
    /// the start too, rather than being silently ignored while replicas each keep their own state.
    public static func check(_ configuration: Configuration) throws {
        guard !configuration.database.isEmpty else { return }
        guard let url = configuration.postgresURL else {
            throw ConfigurationError("database is not a usable PostgreSQL URL.")
        }
        var options = SQLDatabaseOptions()
        options.postgres.maxConnections = 1
        do {
            // The failure is the error itself; the pool's own warning would only repeat it.
            let database = try SQLDatabase(.postgres(url), options: options, logger: .disabled)
            database.close()
        } catch let error as SQLError {
            // The driver's message names the server and says why, in libpq's words.
            throw DatabaseStartupError("database: \(error.message)")
        }
        throw DatabaseStartupError("database: PostgreSQL at \(url.serverDescription) answers, but this build keeps the catalog and comments in SQLite in the data folder only: leave database empty.")
    }
}

/// The database named by the settings cannot be used; the text names the server and says why.
public struct DatabaseStartupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
