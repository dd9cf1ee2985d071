import POSIX
import Synchronization

/// A held advisory lock. It is released by `release()`, when this object goes away, or when the
/// session holding it ends: the process exits or dies, or (PostgreSQL) its connection breaks.
///
/// These locks are for claims another replica must be able to take over: a pyramid build, the
/// one folder scanner. PostgreSQL: a session lock (`pg_try_advisory_lock`) on one connection per
/// database that holds every lock of this process. SQLite: an open-file-description lock on one
/// byte of `<database>-locks`, which the kernel drops when the process ends, so two processes on
/// one data folder exclude each other too. Within one process a key is held once.
public final class SQLAdvisoryLock: Sendable {
    public let key: SQLLockKey
    private let session: any LockSession
    private let ticket: Int64

    init(key: SQLLockKey, session: any LockSession, ticket: Int64) {
        self.key = key
        self.session = session
        self.ticket = ticket
    }

    deinit { session.release(key, ticket: ticket) }

    /// Whether the lock is still held: false after `release()`, or once its session is known to
    /// have ended (checked without a round trip).
    public var isHeld: Bool { session.isHeld(key, ticket: ticket) }

    /// Releases the lock; later calls do nothing.
    public func release() { session.release(key, ticket: ticket) }
}
