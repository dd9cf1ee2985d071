/// What an `AccessRule` decided.
public enum Admission: Sendable {
    /// The handler runs.
    case granted
    /// This answer is sent instead (401, 403, 404, 429 …); the handler does not run.
    case refused(HTTPResponse)
    /// Decided on a worker thread, in the route's lane: nil grants (the handler then runs there
    /// too), a response refuses.
    case deferred(@Sendable () -> HTTPResponse?)
}
