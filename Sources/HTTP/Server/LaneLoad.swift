import Foundation
import Observability
import Synchronization

/// How busy one lane is: for `/readyz` and metrics.
public struct LaneLoad: Sendable, Equatable {
    public var lane: WorkLane
    public var threads: Int
    public var running: Int
    public var queued: Int
    /// How long the oldest queued job has waited, in seconds; 0 when none waits.
    public var oldestWaitSeconds: Double
    /// How long jobs have waited while the lane started none, in seconds; 0 when none waits.
    /// Unlike the oldest wait (which one client's long queue makes long however fast the lane
    /// works), this grows only when the lane has stopped taking work: every thread is stuck.
    public var stalledSeconds: Double
    /// The cost of the jobs running (pixels for renders), and the lane's budget for it.
    public var costInFlight: Int
    public var maxCostInFlight: Int?
    /// Jobs refused since the start: a client had too many waiting (429), the lane had (503).
    public var refusedForClient: Int
    public var refusedForLane: Int
    /// Queued jobs dropped since the start because their client went away.
    public var withdrawn: Int
    /// Queued jobs answered 503 since the start because they waited past `LaneBudget.maxWaitSeconds`.
    public var expired: Int

    public init(lane: WorkLane, threads: Int, running: Int, queued: Int, oldestWaitSeconds: Double, stalledSeconds: Double = 0,
                costInFlight: Int = 0, maxCostInFlight: Int? = nil, refusedForClient: Int = 0, refusedForLane: Int = 0, withdrawn: Int = 0,
                expired: Int = 0) {
        self.lane = lane
        self.threads = threads
        self.running = running
        self.queued = queued
        self.oldestWaitSeconds = oldestWaitSeconds
        self.stalledSeconds = stalledSeconds
        self.costInFlight = costInFlight
        self.maxCostInFlight = maxCostInFlight
        self.refusedForClient = refusedForClient
        self.refusedForLane = refusedForLane
        self.withdrawn = withdrawn
        self.expired = expired
    }
}
