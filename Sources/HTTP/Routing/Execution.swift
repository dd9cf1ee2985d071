/// Where a route's handler runs.
public enum Execution: Sendable {
    /// On the event loop: only for handlers that never block (memory lookups, small JSON).
    case inline
    /// On the worker pool, so a slow handler (disk, SQLite, libvips) never stalls a loop.
    case worker
}
