/// What a lane takes on before it says no: beyond these, a job is refused at once with 429 (its
/// client has enough waiting) or 503 (the lane has), with `Retry-After`, instead of waiting
/// without end. Each limit is off when nil. By default all are off, as for lanes of cheap work.
public struct LaneBudget: Sendable, Equatable {
    /// Jobs one client (its address, or its /64 for IPv6) may have waiting; one more is 429.
    public var maxQueuedPerClient: Int?
    /// Jobs the whole lane may have waiting; one more is 503.
    public var maxQueued: Int?
    /// The cost (a job's `WorkOrder.cost`, pixels for renders) of the jobs running at once: a job
    /// starts only while it fits, or when nothing else runs. The turn waits for it, so a large
    /// job is not passed over for ever by small ones.
    public var maxCostInFlight: Int?
    /// Longest a job may wait for its turn, in seconds: one that has waited longer is answered
    /// 503 with Retry-After when its turn comes, instead of starting work its client has most
    /// likely stopped waiting for.
    public var maxWaitSeconds: Double?

    public init(maxQueuedPerClient: Int? = nil, maxQueued: Int? = nil, maxCostInFlight: Int? = nil, maxWaitSeconds: Double? = nil) {
        self.maxQueuedPerClient = maxQueuedPerClient
        self.maxQueued = maxQueued
        self.maxCostInFlight = maxCostInFlight
        self.maxWaitSeconds = maxWaitSeconds
    }
}
