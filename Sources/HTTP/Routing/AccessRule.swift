/// Who may use a route: every route of a router made with `requiringAccessRules` has one, and
/// the responder asks it before the route's handler runs, wherever the route is resolved (the
/// event loops, `Responder.respond(to:)`), so no handler runs unasked.
///
/// `admit` runs on the event loop for every request of its route: it must not block, and on
/// the hot paths it should neither allocate nor lock for long. What needs the database says so
/// with `.deferred`, and that work runs on a worker thread before the handler.
public protocol AccessRule: Sendable {
    func admit(_ request: HTTPRequest) -> Admission
}

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

/// Anyone may: the rule of routes added to a router that does not require rules.
public struct OpenAccess: AccessRule {
    public init() {}
    @inline(__always)
    public func admit(_ request: HTTPRequest) -> Admission { .granted }
}
