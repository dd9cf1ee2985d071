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
