import SQL

/// The databases the application keeps its state in, as the `database` setting names them.
public final class ApplicationDatabases: Sendable {
    /// The photo catalog: `<data>/catalog.sqlite`, or the PostgreSQL database.
    public let catalog: SQLDatabase
    /// The comments: `<data>/comments.sqlite`, or the PostgreSQL database (the same handle as `catalog`).
    public let comments: SQLDatabase
    /// Accounts, sessions and share links: beside the comments, in the database that is never
    /// learnt again from the folder.
    public var access: SQLDatabase { comments }
    /// The search index: `<data>/search.sqlite`, or the PostgreSQL database (the same handle as
    /// `catalog`). On SQLite a file of its own, so that filling it never holds the catalog's
    /// write lock while a scan or the ingest writes there.
    public let search: SQLDatabase

    init(catalog: SQLDatabase, comments: SQLDatabase, search: SQLDatabase) {
        self.catalog = catalog
        self.comments = comments
        self.search = search
    }

    /// Whether the state is in PostgreSQL, shared by every replica.
    public var isShared: Bool { comments.engine == .postgres }

    /// Closes every database.
    public func close() {
        catalog.close()
        comments.close()
        if search !== catalog { search.close() }
    }
}
