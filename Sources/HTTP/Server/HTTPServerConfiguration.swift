import POSIX

/// Everything the server needs to listen and run.
public struct HTTPServerConfiguration: Sendable {
    public var host: String
    /// 0 picks any free port; `HTTPServer.port` tells which.
    public var port: Int
    /// Event loops (epoll instances, one thread each); default one per core.
    public var eventLoops: Int
    /// Threads in the worker pool's general lane, for `.worker` routes and offloaded replies
    /// that name no lane of their own.
    public var workerThreads: Int
    /// Threads of each further lane (`WorkLane`); a route naming a lane not listed runs in the general one.
    public var lanes: [WorkLane: Int]
    /// What each lane takes on before refusing work (429/503 with Retry-After); none by default.
    public var laneBudgets: [WorkLane: LaneBudget]
    /// A lane whose oldest queued job has waited this long makes `HTTPServer.saturation` report it. Default 2 s.
    public var saturatedAfterSeconds: Double
    /// The `Server` header's value.
    public var serverName: String
    public var limits: HTTPLimits

    public init(
        host: String = "127.0.0.1", port: Int = 8080,
        eventLoops: Int = System.coreCount, workerThreads: Int = max(4, System.coreCount * 2),
        serverName: String = "PhotoScroll", limits: HTTPLimits = HTTPLimits(), lanes: [WorkLane: Int] = [:],
        laneBudgets: [WorkLane: LaneBudget] = [:], saturatedAfterSeconds: Double = 2
    ) {
        self.laneBudgets = laneBudgets
        self.host = host
        self.port = port
        self.eventLoops = eventLoops
        self.workerThreads = workerThreads
        self.lanes = lanes
        self.saturatedAfterSeconds = saturatedAfterSeconds
        self.serverName = serverName
        self.limits = limits
    }
}
