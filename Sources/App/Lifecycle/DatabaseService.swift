/// The catalog and comment databases, opened (and migrated) by `Application.init`; closed last.
final class DatabaseService: Service {
    let name = "databases"
    private let databases: ApplicationDatabases

    init(_ databases: ApplicationDatabases) { self.databases = databases }

    func shutDown(deadline: ContinuousClock.Instant) { databases.close() }
}
