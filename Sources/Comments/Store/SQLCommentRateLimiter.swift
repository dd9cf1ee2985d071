import Foundation
import SQL
import Synchronization

/// The comment rate limit kept in the database, so that every replica draws on one token
/// bucket per client and a client cannot multiply its allowance by the number of replicas.
///
/// The same bucket as the in-memory limiter: `perMinute` comments in a burst, then one every
/// `60 / perMinute` seconds. One statement takes a token (an upsert that refills the bucket for
/// the time since it was last touched, then takes one if there is one), so two replicas taking
/// at once cannot both take the last token. Times are the replicas' own clocks, which NTP keeps
/// within milliseconds; a clock that goes back refills nothing. A lost bucket update only lets
/// a client post a little sooner, so on PostgreSQL these transactions do not wait for their WAL
/// flush (`synchronous_commit = off`): the limit costs comments almost nothing.
public final class SQLCommentRateLimiter: Sendable {
    /// Comments a client may post in a burst, and per minute after that; 0 turns the limit off.
    public let perMinute: Int
    private let database: SQLDatabase
    private let now: @Sendable () -> Double
    private let takes = Atomic(0)

    /// Buckets idle this long are full again, exactly like absent ones, and are deleted.
    static let idleSeconds = 120.0

    /// `now` is wall-clock seconds since 1970 (shared across machines, unlike a monotonic clock).
    public init(database: SQLDatabase, perMinute: Int, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.database = database
        self.perMinute = perMinute
        self.now = now
    }

    /// Takes one token for `client`: nil when allowed, else the whole seconds to wait (`Retry-After`).
    public func take(for client: String) throws -> Int? {
        guard perMinute > 0 else { return nil }
        let capacity = Double(perMinute)
        let rate = capacity / 60
        let now = self.now()
        let double = database.dialect.double
        // The bucket's tokens now: its stored tokens, refilled for the time since, capped.
        let refilled = "(b.tokens + CASE WHEN $4 > b.updated_at THEN ($4 - b.updated_at) * $3 ELSE 0 END)"
        let available = "(CASE WHEN \(refilled) > $2 THEN $2 ELSE \(refilled) END)"
        let upsert = SQLQuery("""
            INSERT INTO comment_rate_buckets AS b (client, tokens, updated_at, allowed)
            VALUES ($1, CAST($2 AS \(double)) - 1, CAST($4 AS \(double)), 1)
            ON CONFLICT (client) DO UPDATE SET
                tokens = \(available) - CASE WHEN \(available) >= 1 THEN 1 ELSE 0 END,
                updated_at = CASE WHEN $4 > b.updated_at THEN $4 ELSE b.updated_at END,
                allowed = CASE WHEN \(available) >= 1 THEN 1 ELSE 0 END
            RETURNING allowed, tokens
            """, [client, capacity, rate, now])
        let row = try database.transaction(.write) { tx -> SQLRow? in
            if tx.engine == .postgres { try tx.execute("SET LOCAL synchronous_commit TO OFF") }
            return try tx.first(upsert)
        }
        if takes.add(1, ordering: .relaxed).newValue % 256 == 0 { prune(now: now) }
        guard let row, try row.decode(0, as: Int.self) == 0 else { return nil }
        let tokens = try row.decode(1, as: Double.self)
        let wait = (1 - tokens) / rate
        // The epsilon keeps float noise (1.9999…/2.0000…1) from adding a whole second.
        return max(1, Int((wait - 1e-6).rounded(.up)))
    }

    /// Deletes buckets that have been full for a while; they behave as absent ones do.
    public func prune(now: Double? = nil) {
        let before = (now ?? self.now()) - Self.idleSeconds
        _ = try? database.run("DELETE FROM comment_rate_buckets WHERE updated_at < \(before)")
    }

    /// Buckets stored now.
    public var trackedClients: Int {
        (try? database.scalar("SELECT COUNT(*) FROM comment_rate_buckets", as: Int.self)) ?? 0
    }
}
