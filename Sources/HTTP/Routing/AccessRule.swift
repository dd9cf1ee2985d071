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
