/// One long-running part of the server (a store, the library's scans, the HTTP server), started
/// in order by a `ServiceGroup` and shut down in reverse.
///
/// `start` returns once the service is running (threads started, port bound) and throws when it
/// cannot start. A service whose work ends on its own with an error calls `fail`, which shuts the
/// whole group down. `shutDown` releases everything the service holds and joins its threads;
/// `deadline` bounds only how long it waits for others (in-flight requests, running builds),
/// never whether it releases: a store is closed even when the deadline has passed.
public protocol Service: AnyObject, Sendable {
    /// Its name in the log.
    var name: String { get }
    func start(fail: @escaping @Sendable (any Error) -> Void) throws
    func shutDown(deadline: ContinuousClock.Instant)
}

extension Service {
    /// A service that is running once it is made (a store opened before the group starts) has
    /// nothing to start.
    public func start(fail: @escaping @Sendable (any Error) -> Void) throws {}
}
