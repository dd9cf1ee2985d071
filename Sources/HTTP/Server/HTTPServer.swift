import Observability

/// Limits that protect the server from large or slow clients. Each default is stated here.
public struct HTTPLimits: Sendable {
    /// Longest request line (method, target, version); longer is 414. Default 8 KiB.
    public var maxRequestLineBytes = 8 * 1024
    /// Largest header section (all field lines); larger is 431. Default 16 KiB.
    public var maxHeaderBytes = 16 * 1024
    /// Most header fields; more is 431. Default 100.
    public var maxHeaderCount = 100
    /// Most open connections; further ones are accepted and closed at once. Default 10 000.
    public var maxConnections = 10_000
    /// Most open connections from one remote address, counted over every event loop; 0 for no
    /// cap. When an address is at the cap, its connection idle the longest on the loop the new
    /// one reached is closed to make room, and with none idle there the new one is answered
    /// 503. Default 256: well below `maxConnections`, so one host holding idle connections
    /// cannot crowd everyone else out.
    public var maxConnectionsPerAddress = 256
    /// Time allowed for a request head to arrive completely once its first byte has. Default 10 s.
    public var headTimeoutSeconds: Double = 10
    /// Time an idle keep-alive connection is kept open. Default 60 s.
    public var idleTimeoutSeconds: Double = 60
    /// Time a response write may make no progress before the connection is dropped. Default 30 s.
    public var writeTimeoutSeconds: Double = 30
    /// Time a request body may take to arrive. Default 60 s.
    public var bodyTimeoutSeconds: Double = 60
    /// Requests of one connection worked on at once; further pipelined requests wait unread
    /// until the earlier ones are answered, as nginx does. Default 1: a client pipelining a
    /// thousand slow requests holds one worker, not a thousand answers' memory.
    public var maxRequestsInFlight = 1
    /// Answer bytes queued for one connection beyond which none of its further requests is
    /// read, until the client has taken them. Default 1 MiB.
    public var maxUnsentOutputBytes = 1 << 20
    /// Unsent bytes of one stream response (Server-Sent Events) beyond which it is closed: the
    /// client reconnects and resumes from its last event id. Default 1 MiB.
    public var maxStreamBacklogBytes = 1 << 20
    /// A client that takes what it is sent slower than this, over a whole `writeTimeoutSeconds`
    /// in which output kept waiting for it, is dropped. Default 1 KiB/s.
    public var minSendBytesPerSecond = 1024

    public init() {}
}

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

/// A finished request, reported to the observer for metrics.
///
/// It reads its method, path, route and peer from the server's record of the request: every
/// answered request makes one, and one reference costs less than copying four strings.
public struct CompletedRequest: Sendable {
    let record: RequestRecord
    public var method: HTTPMethod { record.method }
    public var path: String { record.path }
    /// The matched route pattern, or "" when none matched.
    public var routePattern: String { record.routePattern }
    public var status: HTTPStatus
    public var bytesSent: Int
    public var durationSeconds: Double
    public var remoteAddress: String { record.remoteAddress }

    public init(method: HTTPMethod, path: String, routePattern: String, status: HTTPStatus, bytesSent: Int, durationSeconds: Double, remoteAddress: String) {
        self.init(record: RequestRecord(method: method, path: path, routePattern: routePattern, remoteAddress: remoteAddress, startedAt: 0, http10: false),
                  status: status, bytesSent: bytesSent, durationSeconds: durationSeconds)
    }

    init(record: RequestRecord, status: HTTPStatus, bytesSent: Int, durationSeconds: Double) {
        self.record = record
        self.status = status
        self.bytesSent = bytesSent
        self.durationSeconds = durationSeconds
    }
}

/// Told about connections and finished requests; the application turns these into metrics.
public protocol HTTPServerObserver: Sendable {
    func connectionOpened()
    func connectionClosed()
    func requestCompleted(_ request: CompletedRequest)
    /// The observer one event loop reports to, called once per loop when the server starts: an
    /// observer may hand each loop one of its own, so that loops running on different cores do
    /// not update the same memory for every request. By default, this observer itself.
    func forEventLoop() -> any HTTPServerObserver
}

extension HTTPServerObserver {
    public func forEventLoop() -> any HTTPServerObserver { self }
}

/// An observer that ignores everything.
public struct NullServerObserver: HTTPServerObserver {
    public init() {}
    public func connectionOpened() {}
    public func connectionClosed() {}
    public func requestCompleted(_ request: CompletedRequest) {}
}

/// Facts about the machine the server runs on.
public enum System {
    /// Online processor cores.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

#if canImport(Glibc)
import Glibc
#endif
