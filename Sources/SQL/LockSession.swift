import POSIX
import Synchronization

/// Where a database's advisory locks live.
protocol LockSession: Sendable {
    /// A ticket for the lock, or nil when someone (here or elsewhere) holds `key`.
    func tryLock(_ key: SQLLockKey) throws -> Int64?
    func isHeld(_ key: SQLLockKey, ticket: Int64) -> Bool
    func release(_ key: SQLLockKey, ticket: Int64)
}
