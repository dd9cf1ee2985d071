import Foundation
import Observability
import POSIX

/// The HTTP/1.1 server: epoll event loops, one per core, sharing the port with SO_REUSEPORT,
/// and a worker pool for slow handlers.
// @unchecked Sendable: `port`, `loops` and `pool` are set by `start()` before any loop runs; the stop flags are guarded by `state`.
public final class HTTPServer: @unchecked Sendable {
    /// Host, port, loops, workers and limits, as given.
    public let configuration: HTTPServerConfiguration
    let router: Router
    let logger: Logger
    let observer: any HTTPServerObserver

    /// The port actually bound; valid after `start()`.
    public private(set) var port: Int = 0

    private var loops: [EventLoop] = []
    private var pool: WorkerPool?
    private let state = NSCondition()
    private var stopped = false
    private var stopping = false

    public init(configuration: HTTPServerConfiguration, router: Router, logger: Logger,
                observer: any HTTPServerObserver = NullServerObserver()) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.observer = observer
    }

    /// Binds and starts the loops; returns once the server accepts connections.
    public func start() throws {
        // sendfile(2) has no MSG_NOSIGNAL: a peer that vanished mid-file must not kill the process.
        Signals.ignoreBrokenPipe()
        let count = max(1, configuration.eventLoops)
        var listeners: [Int32] = []
        do {
            var port = configuration.port
            for _ in 0..<count {
                let fd = try Socket.listen(host: configuration.host, port: port, reusePort: true)
                listeners.append(fd)
                // Port 0: the first bind picks a port, the other loops join it.
                if port == 0 { port = try Socket.localPort(fd) }
            }
            self.port = port
        } catch {
            listeners.forEach { Socket.close($0) }
            throw error
        }
        var lanes = configuration.lanes
        lanes[.general] = configuration.workerThreads
        let pool = WorkerPool(lanes: lanes, budgets: configuration.laneBudgets)
        self.pool = pool
        let openConnections = ConnectionCount()
        let addressConnections = AddressConnections()
        for (index, fd) in listeners.enumerated() {
            let context = ServerContext(router: router.copyingRoutes(), limits: configuration.limits, logger: logger, observer: observer.forEventLoop(),
                                        pool: pool, serverName: configuration.serverName, openConnections: openConnections,
                                        addressConnections: addressConnections)
            let loop = try EventLoop(context: context, listener: fd)
            loops.append(loop)
            loop.start(name: "http-loop-\(index)")
        }
    }

    /// How busy each worker lane is now; empty before `start()`.
    public var workload: [LaneLoad] { pool?.load ?? [] }

    /// The lanes whose oldest queued job has waited longer than `saturatedAfterSeconds`: work
    /// there is arriving faster than it is done. Empty when the server keeps up.
    public var saturation: [LaneLoad] {
        workload.filter { $0.oldestWaitSeconds >= configuration.saturatedAfterSeconds }
    }

    /// Blocks until `shutdown` has finished.
    public func wait() {
        state.lock()
        while !stopped { state.wait() }
        state.unlock()
    }

    /// Stops accepting, lets in-flight requests finish for up to `graceSeconds`, then closes everything.
    public func shutdown(graceSeconds: Double) {
        shutdown(deadline: .now + .seconds(double: graceSeconds))
    }

    /// Stops accepting, lets in-flight requests finish until `deadline`, then closes every
    /// connection, ends the loops and joins their threads and the workers'. Each loop says when
    /// its last connection has gone, so shutdown waits on that, not on a timer.
    public func shutdown(deadline: ContinuousClock.Instant) {
        state.lock()
        if stopping {
            while !stopped { state.wait() }
            state.unlock()
            return
        }
        stopping = true
        state.unlock()

        for loop in loops { loop.execute { loop.beginShutdown() } }
        for loop in loops { _ = loop.drained.wait(timeout: deadline.dispatchTime) }
        for loop in loops { loop.execute { loop.stop() } }
        for loop in loops { loop.join() }
        // The loops are gone, so nothing queues more work; what is queued still runs.
        pool?.stop()
        pool?.join(deadline: deadline)
        loops.removeAll()

        state.lock()
        stopped = true
        state.broadcast()
        state.unlock()
    }
}
