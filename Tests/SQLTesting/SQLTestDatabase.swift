import Foundation
import SQL
import XCTest

/// A fresh, empty database on one engine for one test, which can be opened again as a second
/// process would (`openAnother`), and is deleted by `remove()`.
public struct SQLTestDatabase: Sendable {
    public let location: SQLLocation
    /// The cluster, for PostgreSQL databases.
    public let cluster: PostgresCluster?
    private let folder: String?

    public var engine: SQLEngine { location.engine }

    /// A new SQLite file in a temporary folder of its own.
    public static func sqlite() throws -> SQLTestDatabase {
        let folder = NSTemporaryDirectory() + "sql-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return SQLTestDatabase(location: .sqlite(path: folder + "/test.sqlite"), cluster: nil, folder: folder)
    }

    /// A new database on `cluster` (default: the shared one); skips the test when PostgreSQL is not installed.
    public static func postgres(on cluster: PostgresCluster? = nil) throws -> SQLTestDatabase {
        if cluster == nil, let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        let cluster = try cluster ?? PostgresCluster.shared()
        return SQLTestDatabase(location: .postgres(try cluster.createDatabase()), cluster: cluster, folder: nil)
    }

    /// The PostgreSQL URL, for tests that need it.
    public var postgresURL: PostgresURL? {
        if case .postgres(let url) = location { return url }
        return nil
    }

    /// The database name on the cluster, or the SQLite path.
    public var name: String {
        switch location {
        case .sqlite(let path): return path
        case .postgres(let url): return url.database
        }
    }

    /// Another handle on the same database, as another replica would open it.
    public func open(options: SQLDatabaseOptions = SQLDatabaseOptions()) throws -> SQLDatabase {
        try SQLDatabase(location, options: options)
    }

    /// Deletes the database (or the SQLite folder).
    public func remove() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
        if let cluster, let url = postgresURL { try? cluster.dropDatabase(url) }
    }

    /// Runs `body` once per engine on a fresh database: SQLite first, then PostgreSQL. When the
    /// PostgreSQL server is not installed the SQLite run still happens, then the test is skipped
    /// saying why, so a missing server is never taken for a pass.
    public static func forEachEngine(_ body: (SQLTestDatabase) throws -> Void) throws {
        let sqlite = try SQLTestDatabase.sqlite()
        defer { sqlite.remove() }
        try body(sqlite)
        let postgres = try SQLTestDatabase.postgres()
        defer { postgres.remove() }
        try body(postgres)
    }
}
