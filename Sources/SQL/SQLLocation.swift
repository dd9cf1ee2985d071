/// Where a database is.
public enum SQLLocation: Sendable, Equatable, CustomStringConvertible {
    /// An embedded SQLite file (created when missing).
    case sqlite(path: String)
    /// A PostgreSQL server.
    case postgres(PostgresURL)

    public var engine: SQLEngine {
        switch self {
        case .sqlite: return .sqlite
        case .postgres: return .postgres
        }
    }

    /// The file, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return url.description
        }
    }
}
