/// One registered route. A reference: a match hands it to the request's whole way through the
/// connection, and copying one reference costs a fraction of copying (retaining) every field.
public final class Route: Sendable {
    public let method: HTTPMethod
    /// e.g. `/photos/:id/tiles/:z/:x/:y.jpg`; `:name` captures one segment, `:name.ext` one segment
    /// ending in `.ext`, and a final `*name` captures the rest of the path.
    public let pattern: String
    /// The largest request body accepted; a larger one is answered 413 before it is read.
    public let maxBodyBytes: Int
    /// Where its offloaded work runs.
    public let lane: WorkLane
    public let handler: @Sendable (HTTPRequest) throws -> Reply
    /// Set for a route that takes its body as a stream (an upload): the body is handed to the
    /// sink it opens as it arrives instead of being gathered in memory, and `handler` is not used.
    public let bodyOpener: BodyOpener?
    /// Who may use it, asked before `handler` (or `bodyOpener`) runs; nil only in a router that
    /// does not require rules.
    public let access: (any AccessRule)?
    let segments: [PatternSegment]
    /// The names of the pattern's parameters in order, shared by every match of this route.
    let parameterNames: [String]

    init(method: HTTPMethod, pattern: String, maxBodyBytes: Int, lane: WorkLane = .general, access: (any AccessRule)?,
         handler: @escaping @Sendable (HTTPRequest) throws -> Reply, bodyOpener: BodyOpener? = nil, segments: [PatternSegment],
         parameterNames: [String]) {
        self.method = method
        self.pattern = pattern
        self.maxBodyBytes = maxBodyBytes
        self.lane = lane
        self.access = access
        self.handler = handler
        self.bodyOpener = bodyOpener
        self.segments = segments
        self.parameterNames = parameterNames
    }

    /// The same route in a new object, for an event loop of its own (see `Router.copyingRoutes`).
    func copy() -> Route {
        Route(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, lane: lane, access: access, handler: handler, bodyOpener: bodyOpener,
              segments: segments, parameterNames: parameterNames)
    }
}
