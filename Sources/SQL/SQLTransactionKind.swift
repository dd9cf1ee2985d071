/// What a transaction may do, and how strictly it is isolated.
public enum SQLTransactionKind: Sendable, Equatable {
    /// Reads only. PostgreSQL `READ ONLY`; SQLite `BEGIN DEFERRED` (a snapshot from the first read).
    case read
    /// Reads and writes. PostgreSQL `READ COMMITTED`; SQLite `BEGIN IMMEDIATE` (takes the write lock
    /// at once, so writers queue on the busy timeout instead of failing).
    case write
    /// Reads and writes of what can be written again from elsewhere (the photos folder, the
    /// catalog), whose last commits a crash of the machine may lose but never leave half-made.
    /// PostgreSQL `READ COMMITTED` with `synchronous_commit` off for this transaction: its COMMIT
    /// returns without waiting for the log to reach the disk, which, one photo a transaction,
    /// was a large part of a first start's thumbnail stage. SQLite as `.write` (the file's own
    /// `synchronous` setting decides, `NORMAL` for the catalog and the search index).
    case rebuildable
    /// PostgreSQL `SERIALIZABLE` (may fail with `.serializationFailure`, which `SQLDatabase.transaction`
    /// retries); SQLite as `.write`, which is serializable already.
    case serializable
    /// Reads only, every statement seeing the same moment (a backup): PostgreSQL `REPEATABLE READ
    /// READ ONLY`; SQLite `BEGIN DEFERRED`, whose WAL snapshot is fixed by the first read.
    case snapshot
}
