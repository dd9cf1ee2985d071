/// Work a handler hands to the worker pool with more said about it than `Reply.offload` can: the
/// lane (when not the route's), what it costs in the lane's budget, caps on how many like it
/// run at once, and work that is handed its ticket, to stop when its client goes away.
public struct WorkOrder: Sendable {
    /// Where it runs; nil for the route's lane.
    public var lane: WorkLane?
    /// Started only once every cap allows it (renders per photo, per client).
    public var caps: [WorkCap]
    /// Its share of the lane's `LaneBudget.maxCostInFlight` (pixels for renders); 0 for none.
    public var cost: Int
    /// Whether the work is worth stopping once its client has gone (an expensive render). When a
    /// client's input ends while such work runs, the connection sends it an interim
    /// `100 Continue`: a client that has only shut its sending side reads past it (RFC 9110
    /// §15.2), a client that has closed answers with a reset, and the work is then cancelled.
    public var abandonable: Bool
    /// Header fields for the answer when the lane refuses the work (a viewer on another site
    /// needs `Access-Control-Allow-Origin` to read it).
    public var refusalHeaders: HTTPHeaders
    public var work: @Sendable (WorkTicket) throws -> HTTPResponse

    public init(lane: WorkLane? = nil, caps: [WorkCap] = [], cost: Int = 0, abandonable: Bool = false, refusalHeaders: HTTPHeaders = [:],
                work: @escaping @Sendable (WorkTicket) throws -> HTTPResponse) {
        self.lane = lane
        self.caps = caps
        self.cost = cost
        self.abandonable = abandonable
        self.refusalHeaders = refusalHeaders
        self.work = work
    }
}
