/// Settings of a PostgreSQL connection beyond its URL.
public struct PostgresOptions: Sendable, Equatable {
    /// Connections the pool keeps open at most. Default 10.
    public var maxConnections = 10
    /// Seconds a connection attempt may take, unless the URL sets `connect_timeout`. Default 5.
    public var connectTimeoutSeconds = 5
    /// Shown in `pg_stat_activity`, unless the URL sets `application_name`; the listener's and the
    /// advisory locks' sessions add `-listener` and `-locks`. Default `photoscroll`.
    public var applicationName = "photoscroll"
    /// Prepared statements kept per connection. Default 128.
    public var statementCacheCapacity = 128

    public init(maxConnections: Int = 10, connectTimeoutSeconds: Int = 5, applicationName: String = "photoscroll",
                statementCacheCapacity: Int = 128) {
        self.maxConnections = maxConnections
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.applicationName = applicationName
        self.statementCacheCapacity = statementCacheCapacity
    }
}
